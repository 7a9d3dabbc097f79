/**
 * createPost: publishes a post in a channel of the service, attributed to the Slack person,
 * posts its card where the person acted, and tells them where it went.
 */
import { type CreatePostInput, PAGE_SIZE_MAX, type Post } from '../../collab/schemas.ts';
import { findSince, tell, UserError } from '../../engine/index.ts';
import type { JobData } from '../../operations/schemas.ts';
import { md } from '../../render/limits.ts';
import { mrkdwnLink } from '../../render/text.ts';
import { postCardIn } from '../cards.ts';
import { commandOf, type Processor, type ProcessorContext } from '../context.ts';
import { displayName } from '../people.ts';
import { aboutPost, withPostLink } from '../postChange.ts';
import { resolveChannel } from '../resolveRefs.ts';
import { contentContains, createdSince, escapeMarkdown } from '../text.ts';

export const notLinked = (command: string) =>
  `This Slack channel is not linked to a collaboration channel. Name one — \`${command} post #engineering …\` — or link this channel: \`${command} link #engineering\`.`;

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

  // Kept with the create's started mark (the same write): the recover looks from here.
  const since = await ctx.once('create:since', async () => Date.now(), undefined, { repeatable: true });
  const post = await ctx.once(
    'create',
    () => ctx.collab.createPost(input),
    () => findLanded(ctx, input, data.content, since),
  );
  aboutPost(ctx, post);
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
  const told = withPostLink(`Posted to ${channel}:`, post);
  if (data.fromMessage) {
    // Said, since the person may be looking at the channel while the card went into a thread.
    const where = `Its card is in the thread of ${permalink ? mrkdwnLink(permalink, 'the message') : 'the message'}.`;
    told.blocks.push({ type: 'context', elements: [md(where)] });
    told.text = `${told.text} ${where}`;
  }
  await tell(ctx, origin, told);
};

/** The channel id: named in the job (by id as it is, or by name), else the linked one. */
async function targetChannel(ctx: ProcessorContext, data: JobData<'createPost'>): Promise<string> {
  if (data.channel) {
    if ('id' in data.channel) return data.channel.id;
    return (await resolveChannel(ctx, data.channel)).id;
  }
  const link = await ctx.store.links.get(ctx.teamId, data.origin.slackChannel);
  if (!link) throw new UserError(notLinked(commandOf(ctx)));
  return link.channelId;
}

/**
 * A create that may have reached the service (a dropped connection, a garbled answer): the post
 * is ours if it is in the channel, made by an app (everything written with the organisation's key
 * is), with the title we sent — any title when we sent none, as the service may take one from the
 * content —, holding the person's text, and made no earlier than this job's first attempt. The
 * channel is walked back to before that attempt (engine/landed.ts), however many posts came since.
 */
async function findLanded(
  ctx: ProcessorContext,
  input: CreatePostInput,
  text: string,
  since: number,
): Promise<Post | undefined> {
  const title = input.title;
  return findSince(
    ctx.collab.allPosts({
      channelId: input.channel_id,
      sort: 'published_at',
      direction: 'desc',
      limit: PAGE_SIZE_MAX,
    }),
    since,
    (post) =>
      post.author?.type === 'app' &&
      (title === undefined || (post.title ?? '') === title) &&
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
