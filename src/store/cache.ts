/**
 * A short-lived JSON cache in Redis (Slack profiles, picker options). Misses and Redis errors read as empty.
 *
 * A read may ask for an in-process memo (`memoMs`): an entry this process read is then answered
 * from memory for that long, with no round trip (so it may be `memoMs` staler than Redis's; a
 * write of this process drops it). For what may be a little stale (a person's name) and is read
 * on every operation of a busy worker.
 */
import { type KeySpace, keys } from './keys.ts';
import type { Redis } from './redis.ts';

/** Entries kept in memory at most; the oldest go first. */
const MEMO_CAP = 10_000;

export function cacheStore(redis: Redis, space: KeySpace, now: () => number = Date.now) {
  const memo = new Map<string, { raw: string; until: number }>();
  function remember(key: string, raw: string, ms: number) {
    memo.delete(key);
    memo.set(key, { raw, until: now() + ms });
    if (memo.size > MEMO_CAP) memo.delete(memo.keys().next().value as string);
  }
  return {
    async get<T>(teamId: string, name: string, options: { memoMs?: number } = {}): Promise<T | undefined> {
      const key = keys(space, teamId).cache(name);
      try {
        if (options.memoMs) {
          const held = memo.get(key);
          if (held && held.until > now()) return JSON.parse(held.raw) as T;
        }
        const raw = await redis.get(key);
        if (raw === null) return undefined;
        if (options.memoMs) remember(key, raw, options.memoMs);
        return JSON.parse(raw) as T;
      } catch {
        return undefined;
      }
    },
    async set(teamId: string, name: string, value: unknown, ttlSeconds: number): Promise<void> {
      const key = keys(space, teamId).cache(name);
      const raw = JSON.stringify(value);
      memo.delete(key);
      try {
        await redis.set(key, raw, 'EX', ttlSeconds);
      } catch {
        // A cache that cannot be written is only slower.
      }
    },
  };
}
export type CacheStore = ReturnType<typeof cacheStore>;
