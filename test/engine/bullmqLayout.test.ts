/**
 * The contract of engine/bullmq.ts with the BullMQ package.json pins: every key, field and
 * reason of BullMQ's own Redis layout that the engine reads or writes is where the adapter says,
 * of the type it says, after BullMQ's own operations (adding, taking, completing, failing,
 * stalling out, retrying, removing a job) on the real Redis. Should an upgrade of BullMQ move one,
 * this fails before the fault suite would find a broken promise.
 */
import { randomBytes } from 'node:crypto';
import { type Job, Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_FIELDS, queueKeyOf, queueLayout, STALLED_OUT } from '../../src/engine/bullmq.ts';
import { connectRedis, deleteKeys, type Redis, whenReady } from '../../src/store/redis.ts';
import { REDIS_URL } from '../support/harness.ts';

const prefix = `test-layout-${randomBytes(6).toString('hex')}`;
const name = 'operations';

describe("BullMQ's Redis layout, as engine/bullmq.ts names it", () => {
  let redis: Redis;
  let queue: Queue;
  /** a worker that takes jobs by hand, each with a token, as a run holds its job */
  let hands: Worker;
  let layout: ReturnType<typeof queueLayout>;

  beforeAll(async () => {
    redis = connectRedis(REDIS_URL, 'worker');
    await whenReady(redis);
    queue = new Queue(name, { connection: redis, prefix });
    hands = new Worker(name, null, { connection: redis, prefix, lockDuration: 30_000 });
    layout = queueLayout(queue.qualifiedName);
  });
  afterAll(async () => {
    await hands.close();
    await queue.close();
    await deleteKeys(redis, `${prefix}:*`);
    redis.disconnect();
  });

  /** Adds a job and takes it, as a worker's run does: answers the job and its lock's token. */
  async function taken(jobId: string, opts: Parameters<Queue['add']>[2] = {}) {
    await queue.add('createPost', { n: 1 }, { jobId, ...opts });
    const token = `token-${jobId}`;
    const job = (await hands.getNextJob(token)) as Job;
    expect(job.id).toBe(jobId);
    return { job, token, key: layout.job(jobId) };
  }

  it("keeps a job in a hash under the queue's key, locked by its run's token", async () => {
    expect(queueKeyOf(prefix, name)).toBe(queue.qualifiedName);
    const { job, token, key } = await taken('hash-1');
    expect(key).toBe(queue.toKey('hash-1'));
    expect(key.startsWith(layout.jobPrefix)).toBe(true);
    expect(await redis.type(key)).toBe('hash');
    const lock = layout.lock(key);
    expect(await redis.type(lock)).toBe('string');
    expect(await redis.get(lock)).toBe(token);
    expect(await redis.pttl(lock)).toBeGreaterThan(0);
    // Not finished while a run holds it.
    expect(await redis.hexists(key, JOB_FIELDS.finishedOn)).toBe(0);
    await job.moveToCompleted('done', token, false);
  });

  it("keeps the step log as the job's progress, both ways", async () => {
    const { job, token, key } = await taken('progress-1');
    const log = { steps: { create: { started: true, until: 1 } } };
    await job.updateProgress(log);
    expect(JSON.parse((await redis.hget(key, JOB_FIELDS.progress)) ?? 'null')).toEqual(log);
    // The engine's fenced write, read back by BullMQ as the job's progress.
    const written = { steps: { create: { started: true, done: true, value: 'p1' } } };
    await redis.hset(key, JOB_FIELDS.progress, JSON.stringify(written));
    expect((await queue.getJob('progress-1'))?.progress).toEqual(written);
    await job.moveToCompleted('done', token, false);
  });

  it('refuses to complete a job whose lock is gone, and completes it, finished, while the lock holds', async () => {
    const { job, token, key } = await taken('complete-1');
    const lock = layout.lock(key);
    await redis.del(lock);
    await expect(job.moveToCompleted('done', token, false)).rejects.toThrow();
    expect(await job.getState()).toBe('active');
    await redis.set(lock, token, 'PX', 30_000);
    await job.moveToCompleted('done', token, false);
    expect(await redis.type(layout.completed)).toBe('zset');
    expect(await redis.zscore(layout.completed, 'complete-1')).not.toBeNull();
    expect(Number(await redis.hget(key, JOB_FIELDS.finishedOn))).toBeGreaterThan(0);
    expect(await redis.exists(lock)).toBe(0);
  });

  it('keeps a failed job in the failed set, scored when it failed, with its reason', async () => {
    const { job, token, key } = await taken('fail-1', { attempts: 1 });
    await job.moveToFailed(new Error('the service refused it'), token, false);
    expect(await redis.type(layout.failed)).toBe('zset');
    const finishedOn = await redis.hget(key, JOB_FIELDS.finishedOn);
    expect(Number(finishedOn)).toBeGreaterThan(0);
    expect(await redis.zscore(layout.failed, 'fail-1')).toBe(finishedOn);
    expect(await redis.hget(key, JOB_FIELDS.failedReason)).toBe('the service refused it');
  });

  it('deletes the hash of a job trimmed away once it completed', async () => {
    const { job, token, key } = await taken('trimmed-1', { removeOnComplete: true });
    await job.moveToCompleted('done', token, false);
    expect(await redis.exists(key)).toBe(0);
    expect(await redis.zscore(layout.completed, 'trimmed-1')).toBeNull();
  });

  it('holds a deduplication id in its key until its ttl ends, whatever becomes of the job', async () => {
    const deduplication = { id: 'dedup-1', ttl: 60_000 };
    const { job, token } = await taken('dedup-job-1', { deduplication });
    // What the worker reads of a failed job to hold its key longer (engine/worker.ts).
    expect(job.deduplicationId).toBe('dedup-1');
    expect(job.opts.deduplication?.ttl).toBe(60_000);
    const key = layout.deduplication('dedup-1');
    expect(key).toBe(`${queue.keys.de}:dedup-1`);
    expect(await redis.type(key)).toBe('string');
    expect(await redis.get(key)).toBe('dedup-job-1');
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await queue.getDeduplicationJobId('dedup-1')).toBe('dedup-job-1');
    // A duplicate is not added: the add answers the first job.
    expect((await queue.add('createPost', {}, { jobId: 'dedup-job-2', deduplication })).id).toBe(
      'dedup-job-1',
    );
    expect(await queue.getJob('dedup-job-2')).toBeUndefined();
    // The job failing leaves the key; held longer, it keeps dropping duplicates.
    await job.moveToFailed(new Error('failed'), token, false);
    expect(await redis.exists(key)).toBe(1);
    await redis.pexpire(key, 10 * 60_000);
    expect(await redis.pttl(key)).toBeGreaterThan(60_000);
    expect((await queue.add('createPost', {}, { jobId: 'dedup-job-3', deduplication })).id).toBe(
      'dedup-job-1',
    );
    // Removing the job releases it.
    await job.remove();
    expect(await redis.exists(key)).toBe(0);
    expect((await queue.add('createPost', {}, { jobId: 'dedup-job-4', deduplication })).id).toBe(
      'dedup-job-4',
    );
    await (await queue.getJob('dedup-job-4'))?.remove();
  });

  it('keeps the same layout for a job added with a priority (a workspace past its fair share)', async () => {
    const deduplication = { id: 'dedup-prioritized', ttl: 60_000 };
    const { job, token, key } = await taken('prioritized-1', { deduplication, priority: 7 });
    expect(job.opts.priority).toBe(7);
    expect(await redis.type(key)).toBe('hash');
    expect(await redis.get(layout.lock(key))).toBe(token);
    expect(job.deduplicationId).toBe('dedup-prioritized');
    expect(await redis.get(layout.deduplication('dedup-prioritized'))).toBe('prioritized-1');
    const duplicate = await queue.add(
      'createPost',
      {},
      { jobId: 'prioritized-2', deduplication, priority: 7 },
    );
    expect(duplicate.id).toBe('prioritized-1');
    await job.moveToFailed(new Error('failed'), token, false);
    expect(await redis.zscore(layout.failed, 'prioritized-1')).toBe(
      await redis.hget(key, JOB_FIELDS.finishedOn),
    );
  });

  it('keeps the key of a completed job too', async () => {
    const { job, token } = await taken('dedup-job-5', { deduplication: { id: 'dedup-2', ttl: 60_000 } });
    await job.moveToCompleted('done', token, false);
    expect(await redis.get(layout.deduplication('dedup-2'))).toBe('dedup-job-5');
  });

  it("hands a worker's processor the token its job's lock holds", async () => {
    const tokenQueue = `tokens-${randomBytes(4).toString('hex')}`;
    const tokens = queueLayout(queueKeyOf(prefix, tokenQueue));
    const producer = new Queue(tokenQueue, { connection: redis, prefix });
    let seen: (value: [string | undefined, string | null]) => void = () => {};
    const ran = new Promise<[string | undefined, string | null]>((resolve) => {
      seen = resolve;
    });
    const connection = connectRedis(REDIS_URL, 'worker');
    const worker = new Worker(
      tokenQueue,
      async (job: Job, token?: string) => {
        seen([token, await redis.get(tokens.lock(tokens.job(job.id!)))]);
      },
      { connection, prefix },
    );
    try {
      await producer.add('createPost', {}, { jobId: 'token-1' });
      const [token, lock] = await ran;
      expect(token).toBeTruthy();
      expect(lock).toBe(token);
    } finally {
      await worker.close();
      await producer.close();
      connection.disconnect();
    }
  });

  it('fails a job that stalled out with its own reason, and keeps its stall count across a retry', async () => {
    const stallQueue = `stalling-${randomBytes(4).toString('hex')}`;
    const stalling = queueLayout(queueKeyOf(prefix, stallQueue));
    let release: () => void = () => {};
    const hung = new Promise<void>((resolve) => {
      release = resolve;
    });
    const connection = connectRedis(REDIS_URL, 'worker');
    const worker = new Worker(stallQueue, () => hung, {
      connection,
      prefix,
      concurrency: 2,
      lockDuration: 1000,
      stalledInterval: 200,
      maxStalledCount: 0,
    });
    const producer = new Queue(stallQueue, { connection: redis, prefix });
    try {
      const failed = new Promise<[Job | undefined, Error]>((resolve) =>
        worker.on('failed', (job, error) => resolve([job, error])),
      );
      worker.on('active', (job) => {
        // Its worker "dies": the lock goes, and nothing renews it (the taking that fails a job
        // that stalled out is no run, and is left alone).
        if (!job.deferredFailure) void redis.del(stalling.lock(stalling.job(job.id!)));
      });
      await producer.add('createPost', {}, { jobId: 'stall-1', attempts: 3 });
      const [job, error] = await failed;
      expect(error.message).toBe(STALLED_OUT);
      expect(job?.id).toBe('stall-1');
      const key = stalling.job('stall-1');
      expect(await redis.hget(key, JOB_FIELDS.failedReason)).toBe(STALLED_OUT);
      expect(await redis.zscore(stalling.failed, 'stall-1')).toBe(
        await redis.hget(key, JOB_FIELDS.finishedOn),
      );
      // maxStalledCount 0: the first stall fails it, its count one past the most allowed.
      expect((await producer.getJob('stall-1'))?.stalledCounter).toBe(1);
      await worker.close(true);
      await (await producer.getJob('stall-1'))?.retry('failed');
      expect(await redis.hexists(key, JOB_FIELDS.finishedOn)).toBe(0);
      expect((await producer.getJob('stall-1'))?.stalledCounter).toBe(1);
    } finally {
      release();
      await worker.close(true);
      await producer.close();
      connection.disconnect();
    }
  });
});
