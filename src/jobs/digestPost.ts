/**
 * Posting a digest of a Slack channel, what `sendDigest` (the scheduler's tick) and `runDigest`
 * (a person's "run now") share. A digest covers the Slack channel's linked collaboration channel,
 * or all channels when it is not linked.
 */

import { hasFilters, type PostFilters, passesFilters } from '../collab/postFilters.ts';
import type { Post } from '../collab/schemas.ts';
import { type DigestScope, digestMessage, quietDigestMessage } from '../render/digest.ts';
import { closedChannel, joinsFirst, slackErrorCode } from '../slackapi/errors.ts';
import type { Digest } from '../store/digests.ts';
import type { ChannelLink } from '../store/links.ts';
import type { PauseReason } from '../store/slackChannels.ts';
import { changeSlackChannel, observedAt } from './channelPause.ts';
import type { ProcessorContext } from './context.ts';
import { collectDigest, isQuiet, withRechecked } from './digest.ts';
import { digestWatch } from './digestWatch.ts';

export function scopeOf(link: ChannelLink | undefined, digest?: Digest): DigestScope {
  return {
    channelName: link?.channelName,
    schedule: digest ? `${digest.label} (${digest.tz})` : undefined,
  };
}

/**
 * Walks the window, re-reads the posts the digests `watchers` watch (digestWatch.ts), and posts the
 * digest (or the quiet note, or nothing). Answers what it did.
 */
export async function postDigest(
  ctx: ProcessorContext,
  slackChannel: string,
  window: { since: number; until: number },
  scope: DigestScope,
  link: ChannelLink | undefined,
  options: { quietNote: boolean; filters?: PostFilters | undefined; watchers: readonly string[] },
): Promise<'posted' | 'quiet' | 'skipped' | 'paused'> {
  const all = ctx.collab.allPosts({
    sort: 'last_activity_at',
    direction: 'desc',
    limit: 50,
    ...(link ? { channelId: link.channelId } : {}),
  });
  const posts = hasFilters(options.filters) ? filtered(all, options.filters, window.since) : all;
  const watch = await digestWatch(ctx, options.watchers, window, options.filters);
  const walked = await collectDigest(watch.observe(posts), window);
  // After the walk: a post commented meanwhile is then read past the window, never counted twice.
  const rechecked = await watch.recheck();
  const summary = withRechecked(walked, rechecked);
  const quiet = isQuiet(summary);
  ctx.logger.info(
    {
      scanned: summary.scanned,
      resolvedUnseen: rechecked.resolved.length,
      reopened: rechecked.reopened.length,
      quiet,
    },
    'digest collected',
  );
  if (quiet && !options.quietNote) {
    await watch.save();
    return 'skipped';
  }
  const message = quiet ? quietDigestMessage(summary, scope) : digestMessage(summary, scope);
  // At most once: a post that started and never recorded its end is taken as posted.
  const sent = await ctx.once<{ posted: true } | { paused: PauseReason }>(
    'post',
    async () => {
      const send = () =>
        ctx.slack.chat.postMessage({
          channel: slackChannel,
          text: message.text,
          blocks: message.blocks,
          unfurl_links: false,
          unfurl_media: false,
        });
      try {
        try {
          await send();
        } catch (error) {
          if (!joinsFirst(slackErrorCode(error))) throw error;
          await ctx.slack.conversations.join({ channel: slackChannel });
          await send();
        }
      } catch (error) {
        // The channel cannot take posts (archived, deleted, the bot removed): pause, not fail.
        const paused = closedChannel(slackErrorCode(error));
        if (paused) return { paused };
        throw error;
      }
      return { posted: true };
    },
    async () => ({ posted: true }),
  );
  if ('paused' in sent) {
    await changeSlackChannel(ctx, slackChannel, { paused: true, reason: sent.paused, at: observedAt() });
    return 'paused';
  }
  await watch.save();
  return quiet ? 'quiet' : 'posted';
}

/**
 * The posts that pass the filters, and the first one older than the window whatever it is: it
 * ends the walk (posts come newest activity first), so filtering never reads more pages.
 */
export async function* filtered(posts: AsyncIterable<Post>, filters: PostFilters, since: number) {
  for await (const post of posts) {
    const at = Date.parse(post.last_activity_at ?? post.created_at ?? '');
    if (passesFilters(post, filters) || (Number.isFinite(at) && at <= since)) yield post;
  }
}
