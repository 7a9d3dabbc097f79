/**
 * Pausing and resuming what a Slack channel receives. A channel archived, deleted or that the bot
 * was removed from cannot take posts: its feed and digests are paused — their records (follow,
 * watermark, digests and their windows) kept, their schedulers removed so nothing polls for it —
 * and resumed, schedulers back, when the channel is unarchived or the bot is invited back.
 */
import type { PauseReason } from '../store/slackChannels.ts';
import type { ProcessorContext } from './context.ts';
import { schedulerId } from './schedules.ts';

/**
 * The instant of a change seen in a failed post, to the second like Slack's `event_time`: an
 * unarchive or re-invite event of the same second, processed after it, still wins.
 */
export function observedAt(now = Date.now()): number {
  return Math.floor(now / 1000) * 1000;
}

/**
 * Records a change of the channel (a pause, or a resume when `reason` is undefined) that happened
 * at `at`, unless a newer change is recorded; when it changes whether the channel is paused, its
 * schedulers follow. Answers whether the change was recorded.
 */
export async function changeSlackChannel(
  ctx: ProcessorContext,
  slackChannel: string,
  change: { paused: true; reason: PauseReason; at: number } | { paused: false; at: number },
): Promise<boolean> {
  const before = await ctx.store.slackChannels.get(ctx.teamId, slackChannel);
  const recorded = await ctx.store.slackChannels.record(ctx.teamId, slackChannel, {
    paused: change.paused,
    ...(change.paused ? { reason: change.reason } : before?.reason ? { reason: before.reason } : {}),
    at: change.at,
  });
  if (!recorded) return false;
  if ((before?.paused === true) !== change.paused) await followState(ctx, slackChannel);
  ctx.logger.info(
    { slackChannel, ...change },
    change.paused ? 'slack channel paused' : 'slack channel resumed',
  );
  return true;
}

/**
 * Makes the channel's schedulers match its recorded state: none while paused, the feed's and each
 * digest's otherwise. Read again afterwards: a change recorded meanwhile is followed too.
 */
async function followState(ctx: ProcessorContext, slackChannel: string): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const state = await ctx.store.slackChannels.get(ctx.teamId, slackChannel);
    const paused = state?.paused === true;
    const [feed, digests] = await Promise.all([
      ctx.store.feeds.get(ctx.teamId, slackChannel),
      ctx.store.digests.list(ctx.teamId, slackChannel),
    ]);
    const feedId = schedulerId(ctx.teamId, 'feed', slackChannel);
    if (paused) await ctx.schedules.remove(feedId);
    else if (feed) {
      await ctx.schedules.upsert(feedId, { everyMs: ctx.polling.feedIntervalMs }, 'pollFeed', {
        teamId: ctx.teamId,
        slackChannel,
      });
    }
    for (const digest of digests) {
      const digestId = schedulerId(ctx.teamId, 'digest', digest.id);
      if (paused) await ctx.schedules.remove(digestId);
      else {
        await ctx.schedules.upsert(digestId, { pattern: digest.pattern, tz: digest.tz }, 'sendDigest', {
          teamId: ctx.teamId,
          digestId: digest.id,
        });
      }
    }
    const now = await ctx.store.slackChannels.get(ctx.teamId, slackChannel);
    if (now?.at === state?.at) return;
  }
}
