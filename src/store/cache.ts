/** A short-lived JSON cache in Redis (Slack profiles, picker options). Misses and Redis errors read as empty. */
import { type KeySpace, keys } from './keys.ts';
import type { Redis } from './redis.ts';

export function cacheStore(redis: Redis, space: KeySpace) {
  return {
    async get<T>(teamId: string, name: string): Promise<T | undefined> {
      try {
        const raw = await redis.get(keys(space, teamId).cache(name));
        return raw === null ? undefined : (JSON.parse(raw) as T);
      } catch {
        return undefined;
      }
    },
    async set(teamId: string, name: string, value: unknown, ttlSeconds: number): Promise<void> {
      try {
        await redis.set(keys(space, teamId).cache(name), JSON.stringify(value), 'EX', ttlSeconds);
      } catch {
        // A cache that cannot be written is only slower.
      }
    },
  };
}
export type CacheStore = ReturnType<typeof cacheStore>;
