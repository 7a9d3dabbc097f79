/**
 * Queue shards: operations are spread over a fixed number of queues (QUEUE_SHARDS), each
 * workspace's always on the same one, and every worker process serves them all.
 *
 * - One Redis, one shard: the queue is `operations`, as it always was.
 * - Otherwise shard i is `operations-<i>-{<tag>}`. BullMQ's keys of a queue are
 *   `<prefix>:<name>:…`, so the tag in the name keeps every key of one queue in one slot, as
 *   BullMQ's scripts need on a Redis Cluster. Each shard's tag is chosen so that its slot lies in
 *   the i-th of `shards` equal ranges of the 16384 slots: a cluster that splits its slots evenly
 *   (as `redis-cli --cluster create` and managed services do) gets the shards spread evenly over
 *   its masters.
 * - A workspace's shard is a hash of its team id: one workspace's backlog fills its own shard and
 *   leaves the others' flowing.
 *
 * The count is fixed for a deployment: changing it moves workspaces to other shards while their
 * queued jobs and schedules stay on the old ones (README, "Redis Cluster").
 */
import { createHash } from 'node:crypto';
import { keySlot } from '../store/redis.ts';

export const QUEUE_NAME = 'operations';

const SLOTS = 16384;

export interface QueueLayout {
  shards: number;
  /** a Redis Cluster: every queue name carries a hash tag */
  cluster: boolean;
}

/** The queue names of every shard, shard 0 first. */
export function shardNames(layout: QueueLayout): string[] {
  if (layout.shards <= 1 && !layout.cluster) return [QUEUE_NAME];
  return Array.from({ length: Math.max(1, layout.shards) }, (_, i) => {
    const low = Math.floor((i * SLOTS) / layout.shards);
    const high = Math.floor(((i + 1) * SLOTS) / layout.shards);
    for (let k = 0; ; k++) {
      const slot = keySlot(String(k));
      if (slot >= low && slot < high) return `${QUEUE_NAME}-${i}-{${k}}`;
    }
  });
}

/** The shard of a workspace: stable for a given count. */
export function shardOf(teamId: string, shards: number): number {
  if (shards <= 1) return 0;
  return createHash('sha256').update(teamId).digest().readUInt32BE(0) % shards;
}
