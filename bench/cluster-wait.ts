/**
 * What the cluster's WAIT costs an enqueue: a local Redis Cluster (3 masters, 3 replicas,
 * test/cluster/support/localCluster.ts), the operations queue over 6 shards, sequential enqueues
 * of 50 workspaces with REDIS_CLUSTER_WAIT_REPLICAS=0 and =1, in alternating rounds (the machine
 * is noisy: compare within a round). Prints the machine and commit, then p50 and p99 of each;
 * BENCHMARKS.md is updated by hand.
 *
 *   npm run bench:cluster-wait -- [--count 400] [--rounds 3]
 */
import { loadQueueConfig } from '../src/config.ts';
import { createOperationsQueue } from '../src/operations/queue.ts';
import type { JobInput } from '../src/operations/schemas.ts';
import { connectRedis, whenReady } from '../src/store/redis.ts';
import { startLocalCluster } from '../test/cluster/support/localCluster.ts';
import { machineLine } from './lib/process.ts';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const count = arg('count', 400);
const rounds = arg('rounds', 3);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!.toFixed(2);

console.log(`bench:cluster-wait — ${await machineLine()}; --count ${count} --rounds ${rounds}`);
const cluster = await startLocalCluster();
try {
  const target = loadQueueConfig({ REDIS_URL: cluster.url, REDIS_CLUSTER_NODES: cluster.seeds }).redis;
  const redis = connectRedis(target, 'producer');
  await whenReady(redis, 10_000);
  for (let round = 0; round < rounds; round++) {
    for (const replicas of [0, 1]) {
      const queue = createOperationsQueue(redis, {
        prefix: `bench-wait-${round}-${replicas}`,
        hashTags: true,
        attempts: 1,
        backoffMs: 10,
        shards: 6,
        cluster: true,
        wait: { replicas, timeoutMs: 500 },
      });
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        const data = {
          origin: {
            teamId: `T${i % 50}`,
            userId: 'U1',
            slackChannel: 'C1',
            responseUrl: 'https://hooks.slack.com/actions/T1/1/x',
            receivedAt: Date.now(),
            source: 'command',
          },
          channel: { name: 'engineering' },
          content: 'bench',
        } as JobInput<'createPost'>;
        const started = performance.now();
        await queue.enqueue('createPost', data, { idempotencyKey: `k${i}` });
        times.push(performance.now() - started);
      }
      console.log(
        `round ${round + 1}, WAIT for ${replicas} replica(s): enqueue p50 ${pct(times, 0.5)} ms, p99 ${pct(times, 0.99)} ms`,
      );
      await queue.close();
    }
  }
  redis.disconnect();
} finally {
  await cluster.stop();
}
