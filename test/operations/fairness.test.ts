/**
 * Fair shares of the queue between workspaces: one workspace's flood does not make another's
 * operation wait for the whole flood. Beyond its allowance a workspace's operations wait behind
 * everyone's in line (BullMQ priorities), in the order they came; nothing is refused. Counted
 * (which jobs ran before which), never timed.
 */
import { randomBytes } from 'node:crypto';
import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fairShare } from '../../src/operations/fairness.ts';
import { createOperationsQueue, type OperationsQueue } from '../../src/operations/queue.ts';
import type { Origin } from '../../src/operations/schemas.ts';
import { connectRedis, type Redis, whenReady } from '../../src/store/redis.ts';
import { REDIS_URL } from '../support/harness.ts';

describe('fair share of one workspace', () => {
  it('goes in line within its allowance, then one step further behind per operation over it', () => {
    let now = 0;
    const fair = fairShare({ allowance: 3, windowMs: 1000 }, () => now);
    expect([1, 2, 3, 4, 5, 6].map(() => fair.admit('A'))).toEqual([undefined, undefined, undefined, 1, 2, 3]);
    expect(fair.admit('B')).toBeUndefined();
    // Half a window later the flood still counts half: 6 × 0.5 + 1 = 4, one over.
    now = 1500;
    expect(fair.admit('A')).toBe(1);
    // Two quiet windows later it is forgotten.
    now = 4000;
    expect(fair.admit('A')).toBeUndefined();
  });

  it('is off with an allowance of 0 (QUEUE_FAIR_SHARE=0)', () => {
    const fair = fairShare({ allowance: 0, windowMs: 1000 });
    expect(Array.from({ length: 50 }, () => fair.admit('A')).every((p) => p === undefined)).toBe(true);
  });
});

describe('a flood from one workspace and one operation from another', () => {
  const prefix = `fair-${randomBytes(4).toString('hex')}`;
  const ALLOWANCE = 5;
  const FLOOD = 30;
  let redis: Redis;
  let ops: OperationsQueue;
  beforeAll(async () => {
    redis = connectRedis(REDIS_URL, 'producer');
    await whenReady(redis, 10_000);
    ops = createOperationsQueue(redis, {
      prefix,
      attempts: 1,
      backoffMs: 100,
      fairness: { allowance: ALLOWANCE, windowMs: 60_000 },
    });
  });
  afterAll(async () => {
    await ops.queue.obliterate({ force: true });
    await ops.close();
    redis.disconnect();
  });

  const origin = (teamId: string, n: number): Origin => ({
    teamId,
    userId: `U_${n}`,
    slackChannel: 'C_1',
    receivedAt: Date.now(),
    source: 'command',
  });

  it(`runs the other workspace's operation after at most ${ALLOWANCE} of the flood, and the flood in order`, async () => {
    for (let n = 0; n < FLOOD; n++) {
      await ops.enqueue('listChannels', { origin: origin('T_FLOOD', n) }, { idempotencyKey: `flood-${n}` });
    }
    await ops.enqueue('listChannels', { origin: origin('T_QUIET', 0) }, { idempotencyKey: 'quiet' });
    const started: string[] = [];
    let finished: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const worker = new Worker(
      ops.queue.name,
      async (job) => {
        const { teamId, userId } = (job.data as { origin: Origin }).origin;
        started.push(`${teamId}/${userId}`);
        if (started.length === FLOOD + 1) finished();
      },
      { connection: connectRedis(REDIS_URL, 'worker'), prefix, concurrency: 1 },
    );
    try {
      await done;
    } finally {
      await worker.close();
    }
    const quietAt = started.indexOf('T_QUIET/U_0');
    expect(quietAt).toBe(ALLOWANCE);
    expect(started.filter((s) => s.startsWith('T_FLOOD'))).toEqual(
      Array.from({ length: FLOOD }, (_, n) => `T_FLOOD/U_${n}`),
    );
  });
});
