/**
 * A person's recent operations and how they ended (App Home shows them): a capped list per
 * user, newest first, written by the worker when an operation completes or finally fails.
 */
import { z } from 'zod';
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
  return {
    async record(teamId: string, userId: string, entry: RecentOperation): Promise<void> {
      const k = keys(space, teamId).recent(userId);
      // Pipelined in one round trip, not a transaction: a list a moment over its cap is harmless.
      await Promise.all([
        redis.lpush(k, JSON.stringify(entry)),
        redis.ltrim(k, 0, RECENT_CAP - 1),
        redis.expire(k, RECENT_TTL_SECONDS),
      ]);
    },
    async list(teamId: string, userId: string, count = 10): Promise<RecentOperation[]> {
      const raw = await redis.lrange(keys(space, teamId).recent(userId), 0, Math.max(0, count - 1));
      return raw.flatMap((line) => {
        try {
          const parsed = RecentOperation.safeParse(JSON.parse(line));
          return parsed.success ? [parsed.data] : [];
        } catch {
          return [];
        }
      });
    },
  };
}
export type RecentStore = ReturnType<typeof recentStore>;
