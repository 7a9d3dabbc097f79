import { defineConfig } from 'vitest/config';

/**
 * The cluster suite (`npm run test:cluster`): the queue, store and bridge integration tests run
 * again on a local Redis Cluster (test/cluster/support/globalSetup.ts) — the same test files,
 * pointed at the cluster through REDIS_CLUSTER_NODES (test/support/redisTarget.ts) — and the
 * cluster's own tests (test/cluster/), among them a master killed mid-load.
 */
export default defineConfig({
  test: {
    include: [
      'test/cluster/**/*.test.ts',
      // enqueue → worker → outcome, the step log, retries and refusals
      'test/jobs/processors/createPost.test.ts',
      'test/engine/delivery.test.ts',
      'test/engine/lockLost.test.ts',
      'test/engine/stalledPartWay.test.ts',
      'test/jobs/commentLease.test.ts',
      // feeds, mirroring, digests: schedulers and the store's multi-key writes
      'test/jobs/feeds.test.ts',
      'test/jobs/mirroring.test.ts',
      'test/jobs/processors/digests.test.ts',
      // the bridge's front: signed slash commands acked and enqueued on the workspace's shard
      'test/slack/listeners/commands/collab.test.ts',
      'test/slack/listeners/commands/follow.test.ts',
      // store scripts and transactions
      'test/store/budget.test.ts',
      'test/store/cards.test.ts',
      'test/store/digests.test.ts',
      'test/store/installations.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/cluster/support/globalSetup.ts'],
  },
});
