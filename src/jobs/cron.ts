/**
 * The slot a digest scheduler's tick belongs to. The schedule itself (words → cron, checks, next
 * runs) is job data and lives in operations/schedule.ts.
 *
 * Slots. BullMQ 6 gives each job of a pattern scheduler the instant it was scheduled for: the job
 * id is `repeat:<schedulerId>:<nextMillis>` and `job.opts.prevMillis` holds the same `nextMillis`
 * (and `job.timestamp + job.delay` equals it unless the delay was clamped at 0). That instant is
 * computed by cron-parser from the pattern, not read from any worker's clock, so every worker,
 * every re-delivery and every duplicate tick of one slot derive the same value. It is then rounded
 * down to the schedule (the latest cron instant at or before it, with {@link SLOT_SKEW_MS} of
 * tolerance for a tick a little early), which also maps a late, clamped tick to its own slot.
 */
import { CronExpressionParser } from 'cron-parser';

/** A tick this much before a cron instant still belongs to it (ticks are minutes apart at least). */
export const SLOT_SKEW_MS = 1000;

/** The latest run instant at or before `ms`. */
export function runAtOrBefore(pattern: string, tz: string, ms: number): number {
  return CronExpressionParser.parse(pattern, { currentDate: new Date(ms + 1), tz })
    .prev()
    .getTime();
}

/** The slot a tick belongs to: the run instant it was for, rounded to the schedule (see above). */
export function slotOf(pattern: string, tz: string, tickMs: number): number {
  return runAtOrBefore(pattern, tz, tickMs + SLOT_SKEW_MS);
}

/** The run before `slot`: where a first digest starts. */
export function previousRun(pattern: string, tz: string, slot: number): number {
  return runAtOrBefore(pattern, tz, slot - 1);
}

/** What BullMQ 6 tells a scheduler's job about its tick; undefined for a job enqueued by hand. */
export interface TickSource {
  id?: string | undefined;
  timestamp: number;
  delay: number;
  opts: { prevMillis?: number | undefined; repeatJobKey?: string | undefined };
}

/**
 * The instant a scheduler's job was scheduled for: `opts.prevMillis` (BullMQ's own field), else
 * the `:<millis>` suffix of the `repeat:<schedulerId>:<millis>` job id, else timestamp + delay.
 */
export function tickOf(job: TickSource): number | undefined {
  const prev = job.opts.prevMillis;
  if (typeof prev === 'number' && Number.isFinite(prev) && prev > 0) return prev;
  const fromId = job.id?.startsWith('repeat:') ? /:(\d{10,})$/.exec(job.id)?.[1] : undefined;
  if (fromId !== undefined) return Number(fromId);
  if (job.opts.repeatJobKey !== undefined) return job.timestamp + job.delay;
  return undefined;
}
