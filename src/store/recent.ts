/**
 * A person's recent operations and how they ended (App Home shows them): a capped list per
 * user, newest first, written by the worker when an operation completes or finally fails.
 */
import { z } from 'zod';
import { cappedList } from './cappedList.ts';
import { type KeySpace, keys } from './keys.ts';
import type { Redis } from './redis.ts';

export const RECENT_CAP = 20;
/** A person who has not acted for this long has no recent operations. */
const RECENT_TTL_SECONDS = 30 * 24 * 3600;

export const RecentOperation = z.object({
  operation: z.string(),
  outcome: z.enum(['completed', 'failed']),
  /** why it failed, in the words the person was told */
  reason: z.string().optional(),
  at: z.string(),
});
export type RecentOperation = z.infer<typeof RecentOperation>;

export function recentStore(redis: Redis, space: KeySpace) {
  const list = cappedList(redis, RecentOperation, { cap: RECENT_CAP, ttlSeconds: RECENT_TTL_SECONDS });
  return {
    async record(teamId: string, userId: string, entry: RecentOperation): Promise<void> {
      await list.push(keys(space, teamId).recent(userId), entry);
    },
    list(teamId: string, userId: string, count = 10): Promise<RecentOperation[]> {
      return list.newest(keys(space, teamId).recent(userId), count);
    },
  };
}
export type RecentStore = ReturnType<typeof recentStore>;
