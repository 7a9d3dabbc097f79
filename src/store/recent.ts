/**
 * A person's recent operations and how they ended (App Home shows them): a capped list per
 * user, newest first, written by the worker when an operation completes or finally fails. A busy
 * worker ends many operations a second: their entries are written in batches, one script call
 * for up to RECENT_BATCH_MAX of them (store/batches.ts).
 */
import { z } from 'zod';
import { writeInBatches } from './batches.ts';
import { cappedList } from './cappedList.ts';
import { type KeySpace, keys } from './keys.ts';
import type { Redis } from './redis.ts';

export const RECENT_CAP = 20;
/** A person who has not acted for this long has no recent operations. */
const RECENT_TTL_SECONDS = 30 * 24 * 3600;
/** An entry waits at most this long for others to be written with… */
export const RECENT_BATCH_MS = 50;
/** …and a batch is written at once when this many wait. */
export const RECENT_BATCH_MAX = 100;

/** What an operation acted on, as App Home names it: a post's title, linked to the post; a message's people. */
export const RecentSubject = z.object({ title: z.string(), url: z.string().optional() });
export type RecentSubject = z.infer<typeof RecentSubject>;

export const RecentOperation = z.object({
  operation: z.string(),
  /** absent: an operation on no one thing, or one that ended before it knew its post */
  subject: RecentSubject.optional(),
  outcome: z.enum(['completed', 'failed']),
  /** why it failed, in the words the person was told */
  reason: z.string().optional(),
  at: z.string(),
});
export type RecentOperation = z.infer<typeof RecentOperation>;

export function recentStore(redis: Redis, space: KeySpace) {
  const list = cappedList(redis, RecentOperation, { cap: RECENT_CAP, ttlSeconds: RECENT_TTL_SECONDS });
  const batches = writeInBatches(list.pushMany, { waitMs: RECENT_BATCH_MS, max: RECENT_BATCH_MAX });
  return {
    /** Resolves once the entry is written (with its batch); rejects if that write failed. */
    record(teamId: string, userId: string, entry: RecentOperation): Promise<void> {
      return batches.add({ key: keys(space, teamId).recent(userId), entry });
    },
    /** What was recorded, newest first, including entries still waiting to be written. */
    async list(teamId: string, userId: string, count = 10): Promise<RecentOperation[]> {
      // A failed write was told to whoever recorded it; the list shows what Redis has.
      await batches.flush().catch(() => {});
      return list.newest(keys(space, teamId).recent(userId), count);
    },
    /** Writes whatever waits; resolves once written (rejects if a write failed). */
    flush: (): Promise<void> => batches.flush(),
  };
}
export type RecentStore = ReturnType<typeof recentStore>;
