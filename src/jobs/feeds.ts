/**
 * Channel feeds: a Slack channel linked to a collaboration channel follows it. A job scheduler
 * polls the channel's posts, newest activity first, down to the feed's watermark; a new post gets
 * a card in the Slack channel, once ever; a post with cards that changed in the service gets its
 * cards updated and a note in each card's thread.
 *
 * Resolving and reopening a post in the service do not move its `last_activity_at`, so the walk
 * down to the watermark never sees them. The feed therefore also re-reads, by id, the carded posts
 * it watches: open ones as long as they have cards, resolved ones for REOPEN_WATCH_MS after it saw
 * them resolved; at most FEED_RECHECK_BATCH a poll, least recently read first. A quiet channel
 * costs 1 + min(N, FEED_RECHECK_BATCH) requests a poll with N watched posts, and 1 with none.
 */

import { passesFilters } from '../collab/postFilters.ts';
import { isResolved, type Post } from '../collab/schemas.ts';
import { changeNote, type PostChange, postChanges } from '../render/changes.ts';
import { cardVersion } from '../render/postCard.ts';
import {
  closedChannel,
  isSlackBusy,
  SlackBusyError,
  SlackChannelPausedError,
  slackErrorCode,
} from '../slackapi/errors.ts';
import type { FeedState, PostState, Watched } from '../store/feeds.ts';
import { postCardTo, shownState, updateCards } from './cards.ts';
import type { ProcessorContext } from './context.ts';
import { notifyChange } from './notifications.ts';
import { FEED_PAGE_SIZE, FEED_RECHECK_BATCH, MAX_POLL_PAGES, REOPEN_WATCH_MS } from './polling.ts';
import { dueForReread, rereadPost } from './reread.ts';
import { schedulerId } from './schedules.ts';
import {
  advance,
  compareInstants,
  EMPTY_WATERMARK,
  newerThanPaged,
  type Stamped,
  type Watermark,
} from './watermark.ts';

export function feedSchedulerId(teamId: string, slackChannel: string): string {
  return schedulerId(teamId, 'feed', slackChannel);
}

const stamp = (post: Post): Stamped => ({ id: post.id, at: post.last_activity_at });

/** One page of the channel's posts, newest activity first. */
async function page(ctx: ProcessorContext, channelId: string, after?: string) {
  return ctx.collab.listPosts({
    channelId,
    sort: 'last_activity_at',
    direction: 'desc',
    limit: FEED_PAGE_SIZE,
    ...(after ? { after } : {}),
  });
}

/** The watermark of the channel as it is now (one request): a feed starts from it, posting nothing old. */
export async function currentWatermark(ctx: ProcessorContext, channelId: string): Promise<Watermark> {
  const first = await page(ctx, channelId);
  return advance(EMPTY_WATERMARK, first.data.map(stamp));
}

/** Posts with activity after the watermark, newest first: one request unless a burst needs more pages. */
async function freshPosts(ctx: ProcessorContext, channelId: string, mark: Watermark): Promise<Post[]> {
  const read = (after: string | undefined) => page(ctx, channelId, after);
  const { fresh, complete } = await newerThanPaged(read, mark, stamp, MAX_POLL_PAGES);
  if (!complete) {
    ctx.logger.warn(
      { channelId, posts: fresh.length },
      'feed burst larger than one poll reads; older activity skipped',
    );
  }
  return fresh;
}

/** Stops a Slack channel's feed: its scheduler and its state. Answers whether there was one. */
export async function stopFeed(ctx: ProcessorContext, slackChannel: string): Promise<boolean> {
  const scheduled = await ctx.schedules.remove(feedSchedulerId(ctx.teamId, slackChannel));
  const state = await ctx.store.feeds.remove(ctx.teamId, slackChannel);
  return scheduled || state;
}

/** One poll of one feed. */
export async function pollFeedOnce(ctx: ProcessorContext, slackChannel: string): Promise<void> {
  const [link, feed] = await Promise.all([
    ctx.store.links.get(ctx.teamId, slackChannel),
    ctx.store.feeds.get(ctx.teamId, slackChannel),
  ]);
  if (!link || !feed) {
    // Unlinked or unfollowed while this tick was queued: nothing to poll, ever.
    await stopFeed(ctx, slackChannel);
    return;
  }
  if (!feed.watermark || link.channelId !== feed.channelId) {
    // Never polled, or linked to another channel since: start from now, posting nothing old.
    const watermark = await currentWatermark(ctx, link.channelId);
    await ctx.store.feeds.save(ctx.teamId, slackChannel, {
      ...feed,
      channelId: link.channelId,
      watermark,
      since: watermark.at,
    });
    return;
  }
  const fresh = await freshPosts(ctx, link.channelId, feed.watermark);
  const watched = await ctx.store.feeds.watched(ctx.teamId, slackChannel);
  // Oldest first, so cards and notes appear in the order things happened.
  for (const post of [...fresh].reverse()) {
    await onActivity(ctx, slackChannel, feed, post);
    await keepWatching(ctx, slackChannel, post, watched.get(post.id));
  }
  if (fresh.length > 0) {
    await ctx.store.feeds.save(ctx.teamId, slackChannel, {
      ...feed,
      watermark: advance(feed.watermark, fresh.map(stamp)),
    });
  }
  const seen = new Set(fresh.map((post) => post.id));
  await rereadWatched(ctx, slackChannel, watched, seen);
}

/**
 * Re-reads up to FEED_RECHECK_BATCH watched posts (least recently read first, none just seen in
 * the list): a resolution or a reopening made in the service updates their cards.
 */
async function rereadWatched(
  ctx: ProcessorContext,
  slackChannel: string,
  watched: ReadonlyMap<string, Watched>,
  seen: ReadonlySet<string>,
): Promise<void> {
  for (const [postId, entry] of dueForReread(watched, seen, FEED_RECHECK_BATCH)) {
    const post = await rereadPost(ctx, postId);
    // Gone, or out of the key's sight: nothing more to watch.
    if (!post) {
      await ctx.store.feeds.unwatch(ctx.teamId, slackChannel, postId);
      continue;
    }
    if ((await ctx.store.cards.cardsOfPost(ctx.teamId, post.id)).length === 0) {
      await ctx.store.feeds.unwatch(ctx.teamId, slackChannel, postId);
      continue;
    }
    await announceChange(ctx, post);
    await keepWatching(ctx, slackChannel, post, entry);
  }
}

/** Watches a post with cards (just read): open ones always, resolved ones for REOPEN_WATCH_MS. */
async function keepWatching(
  ctx: ProcessorContext,
  slackChannel: string,
  post: Post,
  entry: Watched | undefined,
): Promise<void> {
  const now = Date.now();
  if (!isResolved(post)) {
    if ((await ctx.store.cards.cardsOfPost(ctx.teamId, post.id)).length === 0) return;
    await ctx.store.feeds.watch(ctx.teamId, slackChannel, post.id, { checkedAt: now, resolvedSince: null });
    return;
  }
  const resolvedSince = entry?.resolvedSince ?? now;
  if (now - resolvedSince > REOPEN_WATCH_MS) {
    if (entry) await ctx.store.feeds.unwatch(ctx.teamId, slackChannel, post.id);
    return;
  }
  if (!entry && (await ctx.store.cards.cardsOfPost(ctx.teamId, post.id)).length === 0) return;
  await ctx.store.feeds.watch(ctx.teamId, slackChannel, post.id, { checkedAt: now, resolvedSince });
}

/** A post created after the feed started is new; one without a readable creation time too. */
function isNewPost(post: Post, feed: FeedState): boolean {
  if (!feed.since || !post.created_at) return true;
  return compareInstants(post.created_at, feed.since) > 0;
}

async function onActivity(ctx: ProcessorContext, slackChannel: string, feed: FeedState, post: Post) {
  const cards = await ctx.store.cards.cardsOfPost(ctx.teamId, post.id);
  // Whether the feed carded it before is the claim's to say (cardPost): a claim of this very job
  // (a re-run) must go on to its step log.
  const cardedHere = cards.some((card) => card.slackChannel === slackChannel);
  if (!cardedHere && isNewPost(post, feed) && passesFilters(post, feed.filters)) {
    await cardPost(ctx, slackChannel, post);
  }
  // Cards made elsewhere (or earlier) show an older state of the post.
  if (cards.length > 0) await announceChange(ctx, post);
}

/**
 * Cards a new post in the feed's Slack channel, once ever: a claim in Redis (first poll wins,
 * across workers and restarts), then the card, then its outcome. A run that stopped between
 * posting and recording (a crash) does not post again unless the card is found remembered:
 * a missing card is better than a duplicate.
 */
async function cardPost(ctx: ProcessorContext, slackChannel: string, post: Post): Promise<void> {
  const owner = String(ctx.job.id);
  if ((await ctx.store.feeds.claimCard(ctx.teamId, slackChannel, post.id, owner)) === 'taken') return;
  type Placed = { ts: string } | { error: string };
  const placed = await ctx.once<Placed>(
    `card:${post.id}:${ctx.job.attemptsMade}`,
    async () => {
      const result = await postCardTo(ctx, post, { slackChannel });
      if ('ts' in result) return { ts: result.ts };
      if (isSlackBusy(result.error)) throw new SlackBusyError(`card not posted: ${result.error}`);
      return { error: result.error };
    },
    async () => {
      const cards = await ctx.store.cards.cardsOfPost(ctx.teamId, post.id);
      const found = cards.find((card) => card.slackChannel === slackChannel);
      return found ? { ts: found.ts } : { error: 'uncertain' };
    },
  );
  const pause = 'error' in placed ? closedChannel(placed.error) : undefined;
  if (pause) {
    // The channel cannot take posts (archived, deleted, the bot removed): the post stays uncarded
    // and the watermark where it was, so the feed cards it when the channel is back.
    await ctx.store.feeds.releaseCard(ctx.teamId, slackChannel, post.id);
    throw new SlackChannelPausedError(slackChannel, pause);
  }
  if ('error' in placed) {
    ctx.logger.warn({ err: placed.error, slackChannel, postId: post.id }, 'feed card not posted');
  }
  await ctx.store.feeds.cardDone(
    ctx.teamId,
    slackChannel,
    post.id,
    'ts' in placed ? `card:${placed.ts}` : `failed:${placed.error}`,
  );
}

function sameShown(a: PostState, b: PostState): boolean {
  return (
    a.resolved === b.resolved &&
    a.resolvedAt === b.resolvedAt &&
    a.comments === b.comments &&
    a.lastActivityAt === b.lastActivityAt
  );
}

/**
 * A post with cards had activity: when its cards do not show this state yet (a change made in the
 * service, not by the bot), they are updated in place and each gets a note in its thread saying
 * what changed. One announcement per state of the post, whichever feed sees it first.
 */
async function announceChange(ctx: ProcessorContext, post: Post): Promise<void> {
  const version = cardVersion(post);
  const step = `${post.id}:${version}`;
  // Decided once per run: updating the cards records the new state, so a re-run must not decide again.
  const plan = await ctx.once<{ changes: PostChange[] } | null>(`plan:${step}`, async () => {
    const before = await ctx.store.feeds.postState(ctx.teamId, post.id);
    const now = shownState(post);
    if (before && sameShown(before, now)) return null;
    return { changes: before ? postChanges(before, post) : [] };
  });
  if (!plan) return;
  const owner = String(ctx.job.id);
  if ((await ctx.store.feeds.claimAnnouncement(ctx.teamId, post.id, version, owner)) === 'taken') return;
  await ctx.once(`update:${step}`, async () => updateCards(ctx, post));
  if (plan.changes.length === 0) return;
  await notifyChange(ctx, post, plan.changes);
  const note = changeNote(plan.changes);
  for (const card of await ctx.store.cards.cardsOfPost(ctx.teamId, post.id)) {
    await ctx.once(
      `note:${step}:${card.slackChannel}:${card.ts}`,
      async () => {
        try {
          await ctx.slack.chat.postMessage({
            channel: card.slackChannel,
            thread_ts: card.ts,
            text: note.text,
            blocks: note.blocks,
            unfurl_links: false,
            unfurl_media: false,
          });
          return 'posted';
        } catch (error) {
          const code = slackErrorCode(error);
          ctx.logger.info({ err: code, slackChannel: card.slackChannel }, 'change note not posted');
          return code;
        }
      },
      // Stopped between posting and recording: never post a note twice.
      async () => 'uncertain',
    );
  }
}
