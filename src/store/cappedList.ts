/**
 * A capped Redis list of JSON entries, newest first: what the audit log and a person's recent
 * operations both are. An entry that no longer reads as the schema says is skipped, not thrown.
 */
import type { z } from 'zod';
import type { Redis } from './redis.ts';

export function cappedList<S extends z.ZodType>(
  redis: Redis,
  schema: S,
  options: { cap: number; ttlSeconds?: number },
) {
  return {
    async push(key: string, entry: z.infer<S>): Promise<void> {
      // Pipelined in one round trip, not a transaction: a list a moment over its cap is harmless.
      await Promise.all([
        redis.lpush(key, JSON.stringify(entry)),
        redis.ltrim(key, 0, options.cap - 1),
        ...(options.ttlSeconds !== undefined ? [redis.expire(key, options.ttlSeconds)] : []),
      ]);
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
