/**
 * A capped Redis list of JSON entries, newest first: what the audit log and a person's recent
 * operations both are. An entry that no longer reads as the schema says is skipped, not thrown.
 */

import type { Result } from 'ioredis';
import type { z } from 'zod';
import { storeScript } from './lua.ts';
import { isCluster, keySlot, type Redis } from './redis.ts';

/** Pushes an entry, trims the list to its cap and sets its lifetime (lua/cappedListPush.lua). */
const PUSH_SCRIPT = storeScript('cappedListPush');

/** Pushes entries each onto its own key, then trims each list once (lua/cappedListPushMany.lua). */
const PUSH_MANY_SCRIPT = storeScript('cappedListPushMany');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    cappedListPush(key: string, entry: string, cap: number, ttlSeconds: string): Result<number, Context>;
    /** `numKeys` keys, then the cap, the lifetime and one entry per key */
    cappedListPushMany(numKeys: number, ...keysThenArgs: Array<string | number>): Result<number, Context>;
  }
}

function withScripts(redis: Redis): Redis {
  if (typeof (redis as Partial<Redis>).cappedListPush !== 'function') {
    redis.defineCommand('cappedListPush', { numberOfKeys: 1, lua: PUSH_SCRIPT });
  }
  if (typeof (redis as Partial<Redis>).cappedListPushMany !== 'function') {
    // No fixed number of keys: the call gives it first.
    redis.defineCommand('cappedListPushMany', { lua: PUSH_MANY_SCRIPT });
  }
  return redis;
}

export function cappedList<S extends z.ZodType>(
  redis: Redis,
  schema: S,
  options: { cap: number; ttlSeconds?: number },
) {
  const scripted = withScripts(redis);
  const ttl = options.ttlSeconds === undefined ? '' : String(options.ttlSeconds);
  const pushAll = async (entries: ReadonlyArray<{ key: string; entry: z.infer<S> }>): Promise<void> => {
    const keys = entries.map((e) => e.key);
    const lines = entries.map((e) => JSON.stringify(e.entry));
    await scripted.cappedListPushMany(keys.length, ...keys, options.cap, ttl, ...lines);
  };
  return {
    async push(key: string, entry: z.infer<S>): Promise<void> {
      // One command where three were (a busy worker pushes one for every operation it ends).
      await scripted.cappedListPush(key, JSON.stringify(entry), options.cap, ttl);
    },
    /**
     * Pushes each entry onto its key, in order: one command on one Redis; on a cluster, where a
     * script's keys must share a slot, one per slot.
     */
    async pushMany(entries: ReadonlyArray<{ key: string; entry: z.infer<S> }>): Promise<void> {
      if (entries.length === 0) return;
      if (!isCluster(redis)) return pushAll(entries);
      const bySlot = new Map<number, Array<{ key: string; entry: z.infer<S> }>>();
      for (const item of entries) {
        const slot = keySlot(item.key);
        const group = bySlot.get(slot);
        if (group) group.push(item);
        else bySlot.set(slot, [item]);
      }
      await Promise.all([...bySlot.values()].map(pushAll));
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
