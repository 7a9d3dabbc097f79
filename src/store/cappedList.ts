/**
 * A capped Redis list of JSON entries, newest first: what the audit log and a person's recent
 * operations both are. An entry that no longer reads as the schema says is skipped, not thrown.
 */
import type { Result } from 'ioredis';
import type { z } from 'zod';
import type { Redis } from './redis.ts';

/** Pushes an entry, trims the list to its cap and sets its lifetime: one command (by its SHA). */
const PUSH_SCRIPT = `
redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[2]) - 1)
if ARGV[3] ~= '' then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
return 1`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    cappedListPush(key: string, entry: string, cap: number, ttlSeconds: string): Result<number, Context>;
  }
}

function withPush(redis: Redis): Redis {
  if (typeof (redis as Partial<Redis>).cappedListPush !== 'function') {
    redis.defineCommand('cappedListPush', { numberOfKeys: 1, lua: PUSH_SCRIPT });
  }
  return redis;
}

export function cappedList<S extends z.ZodType>(
  redis: Redis,
  schema: S,
  options: { cap: number; ttlSeconds?: number },
) {
  const scripted = withPush(redis);
  const ttl = options.ttlSeconds === undefined ? '' : String(options.ttlSeconds);
  return {
    async push(key: string, entry: z.infer<S>): Promise<void> {
      // One command where three were (a busy worker pushes one for every operation it ends).
      await scripted.cappedListPush(key, JSON.stringify(entry), options.cap, ttl);
    },
    async newest(key: string, count: number): Promise<Array<z.infer<S>>> {
      const raw = await redis.lrange(key, 0, Math.max(0, count - 1));
      return raw.flatMap((line) => {
        try {
          const parsed = schema.safeParse(JSON.parse(line));
          return parsed.success ? [parsed.data as z.infer<S>] : [];
        } catch {
          return [];
        }
      });
    },
  };
}
