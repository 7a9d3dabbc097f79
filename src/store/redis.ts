/**
 * Redis connections. Two kinds, as BullMQ needs them:
 * - producers (the web role, the store) fail fast while Redis is away — and give up on a command
 *   after 1.5 s if Redis accepted the connection but stopped answering — so Slack hears
 *   "try again" within its 3 s instead of a timeout;
 * - workers block on Redis and must never give up a command (`maxRetriesPerRequest: null`).
 */
import { Redis, type RedisOptions } from 'ioredis';

export type { Redis };

export type ConnectionRole = 'producer' | 'worker';

export function redisOptions(role: ConnectionRole): RedisOptions {
  const common: RedisOptions = {
    lazyConnect: false,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 6), 2000),
  };
  return role === 'producer'
    ? {
        ...common,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        commandTimeout: 1500,
        // While Redis is away every Slack request is refused ("try again"): look for it again
        // twice a second, so the web role is back within ~0.5 s of Redis (the fault suite saw
        // ~1.5 s of extra refusals with the worker's 2 s cap).
        retryStrategy: (times: number) => Math.min(50 * 2 ** Math.min(times, 6), 500),
      }
    : {
        ...common,
        maxRetriesPerRequest: null,
        // The worker's commands issued in one tick leave in one write: a busy worker otherwise
        // spends a fifth of its CPU on a socket write per command (bench:worker, --cpu-prof).
        // Not for producers: batching waits for the next turn of the event loop, and acks
        // should not.
        enableAutoPipelining: true,
      };
}

export function connectRedis(
  url: string,
  role: ConnectionRole,
  options: { autoPipelining?: boolean } = {},
): Redis {
  const redis = new Redis(url, {
    ...redisOptions(role),
    ...(options.autoPipelining === undefined ? {} : { enableAutoPipelining: options.autoPipelining }),
  });
  // Errors are reported by the commands that fail; a listener keeps ioredis from logging them loudly.
  redis.on('error', () => {});
  return redis;
}

/** Resolves once the connection is ready, or rejects after `timeoutMs`. */
export async function whenReady(redis: Redis, timeoutMs = 3000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}

/** Deletes every key matching `pattern` (SCAN + UNLINK, a page at a time); answers how many. */
export async function deleteKeys(redis: Redis, pattern: string): Promise<number> {
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (found.length > 0) deleted += await redis.unlink(...found);
  } while (cursor !== '0');
  return deleted;
}
