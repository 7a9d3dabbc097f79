/**
 * The first stage: the Redis connections, once Redis answers and keeps what it is given (or the
 * operator said it need not). Nothing else starts before this holds.
 */
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { checkDurability, type RedisDurability } from '../store/durability.ts';
import { connectRedis, type Redis, whenReady } from '../store/redis.ts';
import type { Stop } from './stages.ts';

export interface Connections {
  /** the queue's: enqueues, readiness and queue metrics */
  producer: Redis;
  /** the store's, the request budget's and the poll schedule's */
  store: Redis;
  /** BullMQ's workers'; undefined on the web role */
  worker: Redis | undefined;
  /** the step log's; undefined on the web role */
  steps: Redis | undefined;
  /** Redis's persistence and eviction settings, as read at start */
  durability: RedisDurability;
  stop: Stop;
}

/** How long a start waits for Redis to answer before it gives up. */
const READY_TIMEOUT_MS = 10_000;

/**
 * Connections and what knows which Lua scripts: BullMQ defines ~50 on the connections it is
 * given, and ioredis copies every script a connection knows onto each pipeline it makes. So
 * BullMQ's queue and worker each have theirs, and the store (with the budget and the poll
 * schedule) and the step log have their own, which know only the bot's few. No connection is
 * auto-pipelined: measured beside BullMQ's floor (bench:worker), the worker spends less CPU per
 * operation without it, and acks are no slower; the cluster failover test (test/cluster/failover.test.ts) passes
 * without it.
 */
export async function connect(config: Config, logger: Logger): Promise<Connections> {
  const worksJobs = config.role !== 'web';
  const producer = connectRedis(config.redis, 'producer');
  const store = connectRedis(config.redis, 'producer');
  const worker = worksJobs ? connectRedis(config.redis, 'worker') : undefined;
  const steps = worksJobs ? connectRedis(config.redis, 'worker') : undefined;
  const disconnect = () => {
    for (const redis of [producer, store, worker, steps]) redis?.disconnect();
  };
  try {
    // Enqueues fail fast while Redis is away, so start only once it answers.
    await whenReady(producer, READY_TIMEOUT_MS).catch((error: unknown) => {
      throw new Error(`Redis does not answer at ${redactUrl(config.redisUrl)}: ${(error as Error).message}`);
    });
    // A Redis that would lose or evict queued work: refused in production, a warning elsewhere.
    // On a cluster, every master is read (store/durability.ts).
    const durability = await checkDurability(producer, { ...config.redisDurability, logger });
    return { producer, store, worker, steps, durability, stop: async () => disconnect() };
  } catch (error) {
    disconnect();
    throw error;
  }
}

/** A Redis URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured REDIS_URL';
  }
}
