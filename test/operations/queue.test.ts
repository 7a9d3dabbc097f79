/**
 * The enqueue's idempotency claim against the failures a Redis restart or a slow Redis causes
 * between the claim and the add (found while building the fault suite, test/faults/):
 * - the claim's `SET NX` ran but its answer was lost (the connection dropped; ioredis resends
 *   it, or the command timed out client-side) and so the job was never added;
 * - the add failed, and so did the release of the claim (Redis was away for both).
 * Either way the person heard "try again" — and their retry must then be queued, not taken for
 * a duplicate ("Already on it") of a job that does not exist.
 */
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLAIM_TTL_SECONDS,
  createOperationsQueue,
  jobIdFor,
  type OperationsQueue,
} from '../../src/operations/queue.ts';
import type { Origin } from '../../src/operations/schemas.ts';
import { keys } from '../../src/store/keys.ts';
import { connectRedis, type Redis, whenReady } from '../../src/store/redis.ts';
import { REDIS_URL } from '../support/harness.ts';

const TEAM = 'T_ENQ';
const origin: Origin = {
  teamId: TEAM,
  userId: 'U_1',
  slackChannel: 'C_1',
  responseUrl: 'https://hooks.slack.com/commands/T/1/x',
  receivedAt: 1,
  source: 'command',
};
const data = { origin, post: { id: 'pst_1' } };

describe('enqueue: the idempotency claim never swallows an operation', () => {
  const prefix = `enq-${randomBytes(4).toString('hex')}`;
  let redis: Redis;
  let ops: OperationsQueue;
  beforeAll(async () => {
    redis = connectRedis(REDIS_URL, 'producer');
    await whenReady(redis, 10_000);
    ops = createOperationsQueue(redis, { prefix, attempts: 3, backoffMs: 100 });
  });
  afterAll(async () => {
    await ops.queue.obliterate({ force: true });
    await ops.close();
    const found = await redis.keys(`${prefix}:*`);
    if (found.length > 0) await redis.del(...found);
    redis.disconnect();
  });

  const key = () => `k-${randomBytes(6).toString('hex')}`;

  it('a claim whose job was never added (its answer lost, or the add failed) lets the retry queue it', async () => {
    const idempotencyKey = key();
    // What a first attempt leaves behind when Redis went away between the claim and the add.
    const first = await ops.enqueue('resolvePost', data, { idempotencyKey });
    const claimKey = keys({ prefix }, TEAM).claim(first.jobId);
    await ops.queue.obliterate({ force: true });
    await redis.set(claimKey, 'pending', 'EX', CLAIM_TTL_SECONDS);

    const retry = await ops.enqueue('resolvePost', data, { idempotencyKey });
    expect(retry).toEqual({ status: 'queued', jobId: first.jobId });
    expect(await ops.queue.getJob(first.jobId)).toBeDefined();
  });

  it('a duplicate of a queued job is a duplicate, and adds nothing', async () => {
    const idempotencyKey = key();
    const first = await ops.enqueue('resolvePost', data, { idempotencyKey });
    const again = await ops.enqueue('resolvePost', data, { idempotencyKey });
    expect(first.status).toBe('queued');
    expect(again).toEqual({ status: 'duplicate', jobId: first.jobId });
  });

  it('a duplicate after the job ran and was trimmed is still a duplicate (the claim outlives the job)', async () => {
    const idempotencyKey = key();
    const first = await ops.enqueue('resolvePost', data, { idempotencyKey });
    await (await ops.queue.getJob(first.jobId))?.remove();
    const again = await ops.enqueue('resolvePost', data, { idempotencyKey });
    expect(again).toEqual({ status: 'duplicate', jobId: first.jobId });
    expect(await ops.queue.getJob(first.jobId)).toBeUndefined();
  });

  it('deliveries racing each other make one job', async () => {
    const idempotencyKey = key();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => ops.enqueue('resolvePost', data, { idempotencyKey })),
    );
    expect(new Set(results.map((r) => r.jobId)).size).toBe(1);
    expect(results.some((r) => r.status === 'queued')).toBe(true);
    const reader = new Queue('operations', { connection: redis, prefix });
    const jobs = await reader.getJobs(['waiting']);
    await reader.close();
    expect(jobs.filter((j) => j?.id === results[0]!.jobId)).toHaveLength(1);
  });

  // The worker does not check job data again (operations/schemas.ts): enqueue is the door.
  it('malformed data never enters the queue: the enqueue throws, and leaves neither job nor claim', async () => {
    const idempotencyKey = key();
    const malformed = [
      { origin: { ...origin, teamId: '' }, post: { id: 'pst_1' } },
      { origin, post: {} },
      { origin: { ...origin, receivedAt: 'soon' }, post: { id: 'pst_1' } },
      { post: { id: 'pst_1' } },
    ];
    const count = async () => Object.values(await ops.queue.getJobCounts()).reduce((sum, n) => sum + n, 0);
    const before = await count();
    for (const bad of malformed) {
      await expect(ops.enqueue('resolvePost', bad as never, { idempotencyKey })).rejects.toThrow();
    }
    expect(await count()).toBe(before);
    const jobId = jobIdFor(TEAM, idempotencyKey);
    expect(await ops.queue.getJob(jobId)).toBeUndefined();
    expect(await redis.exists(keys({ prefix }, TEAM).claim(jobId))).toBe(0);
  });

  it('what is queued is the parsed data: defaults filled in, unknown fields dropped', async () => {
    const { jobId } = await ops.enqueue('listPosts', { origin, extra: 'x' } as never, {
      idempotencyKey: key(),
    });
    const job = await ops.queue.getJob(jobId);
    expect(job?.data).toEqual({ origin, unresolvedOnly: false });
  });
});
