/**
 * createPost: publishes a post in a channel of the service, attributed to the Slack person,
 * posts its card where the person acted, and tells them where it went.
 */
import type { CreatePostInput, Post } from '../../collab/schemas.ts';
import type { Processor, ProcessorContext } from '../context.ts';
import { UserError } from '../errors.ts';
import type { JobData } from '../schemas.ts';
import { postCardIn } from './cards.ts';
import { displayName } from './people.ts';
import { withPostLink } from './postChange.ts';
import { resolveChannel } from './resolveRefs.ts';
import { tell } from './tell.ts';
import { contentContains, createdSince, escapeMarkdown } from './text.ts';

export const NOT_LINKED =
  'This Slack channel is not linked to a collaboration channel. Name one — `/collab post #engineering …` — or link this channel: `/collab link #engineering`.';

/** How many of a channel's newest posts are searched for one that may have landed. */
const RECOVER_WINDOW = 20;

export const createPost: Processor<'createPost'> = async (data, ctx) => {
  const { origin } = data;
  const channelId = await targetChannel(ctx, data);
  const name = await displayName(ctx, origin.userId);
  const permalink = await ctx.once('permalink', () => permalinkOf(ctx, data.fromMessage));
  const attribution = permalink
    ? `_Posted from Slack by ${escapeMarkdown(name)} ([message](${permalink}))_`
    : `_Posted from Slack by ${escapeMarkdown(name)}_`;
  const input: CreatePostInput = {
    content_markdown: `${data.content}\n\n${attribution}`,
    channel_id: channelId,
    ...(data.title?.trim() ? { title: data.title.trim() } : {}),
  };

  const since = await ctx.once('create:since', async () => Date.now());
  const post = await ctx.once(
    'create',
    () => ctx.collab.createPost(input, { signal: ctx.signal }),
    () => findLanded(ctx, input, data.content, since),
  );
  await ctx.store.urls.remember(ctx.teamId, post.url, post.id);
  await ctx.store.notifications.rememberCreator(ctx.teamId, post.id, origin.userId);

  // The card goes where the person acted; for a post made from a message, into that message's thread.
  const where = data.fromMessage
    ? { slackChannel: data.fromMessage.slackChannel, threadTs: data.fromMessage.ts }
    : { slackChannel: origin.slackChannel, threadTs: origin.threadTs };
  // A card is remembered as soon as Slack answers: one remembered in that Slack channel is this run's.
  await ctx.once(
    'card',
    () => postCardIn(ctx, origin, post, where),
    async () =>
      (await ctx.store.cards.cardsOfPost(ctx.teamId, post.id)).find(
        (c) => c.slackChannel === where.slackChannel,
      ),
  );

  const channel = post.channel?.name ? `#${post.channel.name.replace(/^#/, '')}` : 'the channel';
  await tell(ctx, origin, withPostLink(`Posted to ${channel}:`, post));
};

/** The channel id: named in the job (by id as it is, or by name), else the linked one. */
async function targetChannel(ctx: ProcessorContext, data: JobData<'createPost'>): Promise<string> {
  if (data.channel) {
    if ('id' in data.channel) return data.channel.id;
    return (await resolveChannel(ctx, data.channel)).id;
  }
  const link = await ctx.store.links.get(ctx.teamId, data.origin.slackChannel);
  if (!link) throw new UserError(NOT_LINKED);
  return link.channelId;
}

/**
 * A create that may have reached the service (a dropped connection, a garbled answer): the post
 * is ours if it is among the channel's newest, made by an app, with the same title, holding the
 * person's text, and made no earlier than this job's first attempt.
 */
async function findLanded(
  ctx: ProcessorContext,
  input: CreatePostInput,
  text: string,
  since: number,
): Promise<Post | undefined> {
  const page = await ctx.collab.listPosts(
    { channelId: input.channel_id, sort: 'published_at', direction: 'desc', limit: RECOVER_WINDOW },
    { signal: ctx.signal },
  );
  const title = input.title ?? '';
  return page.data.find(
    (post) =>
      post.author?.type === 'app' &&
      (post.title ?? '') === title &&
      createdSince(post.created_at, since) &&
      contentContains(post.content, text),
  );
}

/** A link back to the Slack message a post was made from; none if Slack will not say. */
async function permalinkOf(
  ctx: ProcessorContext,
  message: JobData<'createPost'>['fromMessage'],
): Promise<string | undefined> {
  if (!message) return undefined;
  try {
    const res = await ctx.slack.chat.getPermalink({ channel: message.slackChannel, message_ts: message.ts });
    return res.permalink && /^https:\/\/[^\s()<>]+$/.test(res.permalink) ? res.permalink : undefined;
  } catch {
    return undefined;
  }
}
