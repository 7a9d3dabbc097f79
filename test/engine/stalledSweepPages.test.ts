/**
 * The sweep of stalled-out jobs (stalledSweep.ts) reads the failed set a page at a time. BullMQ
 * fails every job that stalled out at one stalled check with one and the same time — a worker
 * crash loop fails hundreds at once — and a page that ended inside such a run was read again from
 * the run's start at every later sweep: the same page for ever, and nothing after it settled.
 * Each sweep now reads the whole run its page ends in, and the next reads on after it.
 */
import { randomBytes } from 'node:crypto';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STALLED_OUT } from '../../src/engine/bullmq.ts';
import { SWEEP_PAGE, startStalledSweep } from '../../src/engine/stalledSweep.ts';
import { createLogger } from '../../src/logger.ts';
import type { Redis } from '../../src/store/redis.ts';
import { connectTestRedis } from '../support/redisTarget.ts';

describe('the sweep of stalled-out jobs, page by page', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = connectTestRedis('worker');
  });
  afterAll(() => redis.quit());

  it('settles every failure once, many of them failed at the same time, while settled jobs leave the failed set', async () => {
    const queueKey = `test-${randomBytes(6).toString('hex')}:collab-ops`;
    const failedKey = `${queueKey}:failed`;
    const now = Date.now();
    const at = now - 60_000;
    // More than two pages failed at one time, then more than a page one by one; every third
    // failed otherwise (not stalled out), which the sweep leaves alone.
    const together = 2 * SWEEP_PAGE + 200;
    const apart = SWEEP_PAGE + 200;
    const stalledOut = new Set<string>();
    const batch = redis.pipeline();
    for (let i = 0; i < together + apart; i += 1) {
      const id = String(i + 1);
      const reason = i % 3 === 2 ? 'the service refused it' : STALLED_OUT;
      if (reason === STALLED_OUT) stalledOut.add(id);
      batch.hset(`${queueKey}:${id}`, 'failedReason', reason);
      batch.zadd(failedKey, i < together ? at : at + i, id);
    }
    await batch.exec();

    const settled: string[] = [];
    const sweep = startStalledSweep({
      connection: redis,
      queueKey,
      load: async (id) =>
        ({
          id,
          name: 'createPost',
          isFailed: async () => (await redis.zscore(failedKey, id)) !== null,
        }) as unknown as Job,
      settle: async (job) => {
        settled.push(job.id!);
        // Half of them run once more, as a stalled-out job with part of it done does.
        if (Number(job.id) % 2 === 0) await redis.zrem(failedKey, job.id!);
        return true;
      },
      everyMs: 3600_000,
      graceMs: 1000,
      windowMs: 24 * 3600_000,
      logger: createLogger({ level: 'silent' }),
      now: () => now,
    });
    try {
      // Pages needed: the first ends inside the run of equal times and reads all of it; then
      // the failures one by one, a page and the rest.
      for (let i = 0; i < 3; i += 1) await sweep.sweep();
      expect(settled).toHaveLength(stalledOut.size);
      expect(new Set(settled)).toEqual(stalledOut);
      // A sweep more finds nothing new.
      await sweep.sweep();
      expect(settled).toHaveLength(stalledOut.size);
    } finally {
      await sweep.stop();
      const keys = await redis.keys(`${queueKey}:*`);
      if (keys.length > 0) await redis.del(...keys);
    }
  }, 60_000);
});
