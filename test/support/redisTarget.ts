/**
 * The tests' Redis: REDIS_URL, or the Redis Cluster named by REDIS_CLUSTER_NODES (the cluster
 * suite, vitest.cluster.config.ts, starts one and sets it). The same tests run on either: they
 * connect and build key spaces through here.
 */
import { loadQueueConfig } from '../../src/config.ts';
import type { KeySpace } from '../../src/store/keys.ts';
import { type ConnectionRole, connectRedis, type Redis } from '../../src/store/redis.ts';

const queueConfig = loadQueueConfig(process.env);

export const REDIS_TARGET = queueConfig.redis;

/** Whether the tests run on a Redis Cluster. */
export const ON_CLUSTER = REDIS_TARGET.cluster !== undefined;

/** The variables that point the bot at the tests' Redis (for loadConfig). */
export const REDIS_ENV: Record<string, string> = {
  REDIS_URL: REDIS_TARGET.url,
  ...(process.env.REDIS_CLUSTER_NODES ? { REDIS_CLUSTER_NODES: process.env.REDIS_CLUSTER_NODES } : {}),
  ...(process.env.QUEUE_SHARDS ? { QUEUE_SHARDS: process.env.QUEUE_SHARDS } : {}),
};

export function connectTestRedis(role: ConnectionRole): Redis {
  return connectRedis(REDIS_TARGET, role);
}

/** A key space as the bot builds it on the tests' Redis (hash tags on a cluster). */
export function testSpace(prefix: string): KeySpace {
  return { prefix, hashTags: ON_CLUSTER };
}
