/** listPosts: one page of posts, newest activity first, optionally of one channel and open only. */
import { isResolved } from '../../collab/schemas.ts';
import { postList } from '../../render/lists.ts';
import type { Processor } from '../context.ts';
import { cursorOption, deliverList, pagingButtons } from '../paging.ts';
import { resolveChannel } from '../resolveRefs.ts';

export const POSTS_PAGE_SIZE = 10;

export const listPosts: Processor<'listPosts'> = async (data, ctx) => {
  const channel = data.channel ? await resolveChannel(ctx, data.channel) : undefined;
  const page = await ctx.collab.listPosts({
    sort: 'last_activity_at',
    direction: 'desc',
    limit: POSTS_PAGE_SIZE,
    ...(channel ? { channelId: channel.id } : {}),
    ...cursorOption(data),
  });
  for (const post of page.data) await ctx.store.urls.remember(ctx.teamId, post.url, post.id);
  const paging = await pagingButtons(
    ctx,
    'listPosts',
    { channel: data.channel, unresolvedOnly: data.unresolvedOnly },
    page,
    data,
  );
  // The API has no resolution filter: open-only filters this page, and the title says so.
  const shown = data.unresolvedOnly ? { ...page, data: page.data.filter((post) => !isResolved(post)) } : page;
  const where = channel ? `Posts in #${channel.name}` : 'Recent posts';
  const title = data.unresolvedOnly ? `${where} — unresolved on this page` : where;
  await deliverList(ctx, data.origin, data, postList(shown, { title, paging }));
};
