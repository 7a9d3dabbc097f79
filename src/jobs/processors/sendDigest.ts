/**
 * The scheduler's tick of one digest.
 *
 * At most once per slot: the slot is derived from the tick BullMQ scheduled (cron.ts), rounded to
 * the schedule, and claimed with SET NX under the job's id before anything is posted. Another job
 * for the same slot (a duplicate tick, a re-delivery, a second worker) finds the claim taken and
 * posts nothing; the same job running again (a retry, a stall) keeps its claim, and its step log
 * never posts twice.
 */
import type { Processor } from '../context.ts';
import { previousRun, slotOf, tickOf } from '../cron.ts';
import { postDigest, scopeOf } from '../digestPost.ts';
import { digestSchedulerId } from '../digestSchedules.ts';

export const sendDigest: Processor<'sendDigest'> = async (data, ctx) => {
  const { digestId } = data;
  const log = ctx.logger.child({ digestId });
  const digest = await ctx.store.digests.get(ctx.teamId, digestId);
  if (!digest) {
    // The digest was removed but its scheduler survived (a crash between the two): finish the job.
    await ctx.schedules.remove(digestSchedulerId(ctx.teamId, digestId));
    log.info('digest is gone; scheduler removed');
    return;
  }
  if (await ctx.store.slackChannels.isPaused(ctx.teamId, digest.slackChannel)) {
    // A tick queued before its channel was paused: the window stays open for after the resume.
    log.info('slack channel paused; nothing posted');
    return;
  }
  const tick = data.slot ?? tickOf(ctx.job);
  if (tick === undefined) {
    log.warn('a sendDigest job without a scheduled tick or slot; nothing posted');
    return;
  }
  const slot = slotOf(digest.pattern, digest.tz, tick);
  // The owner is this job record (id and creation time): a retry or a stalled re-run of it keeps
  // the claim; any other job for the slot — even one BullMQ re-created under the same id — does not.
  const owner = `${ctx.job.id ?? 'job'}@${ctx.job.timestamp}`;
  const claim = await ctx.store.digests.claimSlot(ctx.teamId, digest.id, slot, owner);
  if (claim === 'taken') {
    log.info({ slot }, 'slot already claimed; nothing posted');
    return;
  }
  const since =
    (await ctx.store.digests.lastUntil(ctx.teamId, digest.id)) ??
    previousRun(digest.pattern, digest.tz, slot);
  const link = await ctx.store.links.get(ctx.teamId, digest.slackChannel);
  const outcome =
    since >= slot
      ? 'skipped'
      : await postDigest(ctx, digest.slackChannel, { since, until: slot }, scopeOf(link, digest), link, {
          quietNote: ctx.features?.digestQuietNote === true,
          filters: digest.filters,
          watchers: [digest.id],
        });
  // Paused: the window stays open, and the first digest after the resume covers it.
  if (outcome !== 'paused') await ctx.store.digests.setLastUntil(ctx.teamId, digest.id, slot);
  log.info({ slot, since, outcome }, 'digest slot done');
};
