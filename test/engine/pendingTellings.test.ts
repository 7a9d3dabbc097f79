/**
 * The index of outcomes told after their job completed (engine/pendingTellings.ts), on the real Redis: a
 * sweep claims the due tellings of jobs that completed (or completed and were trimmed away) or
 * failed after the mark, once; it looks again later at a job that runs again; a telling confirmed
 * or still being told is not due.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tellingStore } from '../../src/engine/pendingTellings.ts';
import type { JobFence, PendingTelling } from '../../src/store/fence.ts';
import { deleteKeys, type Redis, whenReady } from '../../src/store/redis.ts';
import { connectTestRedis } from '../support/redisTarget.ts';

let redis: Redis;
let queueKey: string;

beforeAll(async () => {
  redis = connectTestRedis('worker');
  await whenReady(redis);
  // A queue's keys as BullMQ names them, hash-tagged as the bot's shards are on a cluster.
  queueKey = `test-tellings-${randomBytes(6).toString('hex')}:{operations}`;
});

afterAll(async () => {
  await deleteKeys(redis, `${queueKey.split(':')[0]}:*`);
  redis.disconnect();
});

/** A job of the queue holding its lock, as a run of it would. */
async function runningJob(id: string, token = `tok-${id}`): Promise<JobFence> {
  await redis.hset(`${queueKey}:${id}`, 'name', 'resolvePost');
  await redis.set(`${queueKey}:${id}:lock`, token, 'PX', 60_000);
  return {
    job: `${queueKey}:${id}`,
    lock: `${queueKey}:${id}:lock`,
    token,
    lockMs: '60000',
    progress: '{"steps":{}}',
    field: 'progress',
  };
}

function pending(
  store: ReturnType<typeof tellingStore>,
  jobId: string,
  at: number,
  confirmed: string[] = [],
) {
  const telling = JSON.stringify({ origin: { teamId: 'T1' }, message: { text: `told ${jobId}` } });
  return { ...store.where, jobId, at: String(at), telling, confirmed } satisfies PendingTelling;
}

describe('tellings after completion', () => {
  it('marks only under the run’s lock, and claims a completed job’s telling once', async () => {
    const store = tellingStore(redis, queueKey);
    const fence = await runningJob('a');
    expect(await store.mark({ ...fence, token: 'not-the-run' }, pending(store, 'a', 1000))).toBe(false);
    expect(await store.claimDue(5000, 10, 6000)).toEqual([]);

    expect(await store.mark(fence, pending(store, 'a', 1000))).toBe(true);
    expect(await redis.hget(`${queueKey}:a`, 'progress')).toBe('{"steps":{}}');
    // Not due before its grace has passed.
    expect(await store.claimDue(999, 10, 6000)).toEqual([]);
    await redis.zadd(`${queueKey}:completed`, 2000, 'a');
    const claimed = await store.claimDue(5000, 10, 6000);
    expect(claimed.map(([id]) => id)).toEqual(['a']);
    expect(JSON.parse(claimed[0]![1]).message.text).toBe('told a');
    expect(await store.claimDue(5000, 10, 6000)).toEqual([]);
  });

  it('claims the telling of a completed job trimmed away since', async () => {
    const store = tellingStore(redis, queueKey);
    const fence = await runningJob('gone');
    expect(await store.mark(fence, pending(store, 'gone', 1000))).toBe(true);
    await redis.del(`${queueKey}:gone`);
    expect((await store.claimDue(5000, 10, 6000)).map(([id]) => id)).toEqual(['gone']);
  });

  it('claims a failed job’s telling (no failure is told after a mark), and looks again later at a job that runs again', async () => {
    const store = tellingStore(redis, queueKey);
    expect(await store.mark(await runningJob('f1'), pending(store, 'f1', 1000))).toBe(true);
    expect(await store.mark(await runningJob('r1'), pending(store, 'r1', 1000))).toBe(true);
    await redis.zadd(`${queueKey}:failed`, 2000, 'f1');
    expect((await store.claimDue(5000, 10, 6000)).map(([id]) => id)).toEqual(['f1']);
    // Runs again: left in, looked at again from the sweep's time on.
    expect(await redis.zscore(store.where.index, 'r1')).toBe('6000');
    expect(await store.claimDue(5000, 10, 6000)).toEqual([]);
    await redis.zadd(`${queueKey}:completed`, 7000, 'r1');
    expect((await store.claimDue(8000, 10, 9000)).map(([id]) => id)).toEqual(['r1']);
  });

  it('a confirmed telling, or one still being told, is not due', async () => {
    const store = tellingStore(redis, queueKey);
    expect(await store.mark(await runningJob('c1'), pending(store, 'c1', 1000))).toBe(true);
    expect(await store.mark(await runningJob('c2'), pending(store, 'c2', 1000))).toBe(true);
    // The next mark carries the confirmation of c1; c2 is still being told at 4000.
    expect(await store.mark(await runningJob('c3'), pending(store, 'c3', 1000, ['c1']))).toBe(true);
    await store.stillTelling(['c2'], 4000);
    await store.confirm(['c3']);
    await redis.zadd(`${queueKey}:completed`, 2000, 'c1', 2000, 'c2', 2000, 'c3');
    expect(await store.claimDue(3000, 10, 6000)).toEqual([]);
    expect(await redis.hexists(store.where.messages, 'c1')).toBe(0);
    expect((await store.claimDue(5000, 10, 6000)).map(([id]) => id)).toEqual(['c2']);
    expect(await store.pendingCount()).toBe(0);
  });
});
