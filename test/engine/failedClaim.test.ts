/**
 * A failed job's record is kept a week for operators; the idempotency key of its operation is
 * held a day longer, so no duplicate is ever taken for a new operation while that record is there
 * (the key of a job that completed is held a day, its record an hour).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLAIM_TTL, FAILED_CLAIM_TTL, FAILED_RECORD_AGE_S } from '../../src/operations/queue.ts';
import { originOf, unique } from '../jobs/helpers.ts';
import { type Harness, startHarness, TEAM } from '../support/harness.ts';

describe('the idempotency key of a failed operation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const keyTtl = async (jobId: string) => {
    const queue = h.bot.queue.queueFor(TEAM);
    const id = (await queue.getJob(jobId))?.deduplicationId;
    expect(id).toBeDefined();
    return h.bot.store.redis.pttl(`${queue.keys.de}:${id}`);
  };

  it('outlives the failed record, and a duplicate is still a duplicate', async () => {
    expect(FAILED_CLAIM_TTL).toBeGreaterThan(FAILED_RECORD_AGE_S * 1000);
    const idempotencyKey = unique('failing');
    const data = { origin: originOf(h), post: { id: 'pst_missing' } };
    const first = await h.bot.queue.enqueue('resolvePost', data, { idempotencyKey });
    expect(first.status).toBe('queued');
    expect(await h.settled(first.jobId)).toBe('failed');
    // The worker holds the key longer once the job has failed (its 'failed' event).
    await vi.waitFor(async () =>
      expect(await keyTtl(first.jobId)).toBeGreaterThan(FAILED_RECORD_AGE_S * 1000),
    );
    expect(await keyTtl(first.jobId)).toBeLessThanOrEqual(FAILED_CLAIM_TTL);
    expect(await h.bot.queue.enqueue('resolvePost', data, { idempotencyKey })).toEqual({
      status: 'duplicate',
      jobId: first.jobId,
    });
  });

  it('of a completed operation is held a day, as before', async () => {
    const org = h.emulator.org();
    const someone = org.authorOf([...org.members.values()].find((m) => !m.is_deactivated)!);
    const support = [...org.channels.values()].find((c) => c.name === 'support')!;
    const post = org.createPost(someone, { content_markdown: 'a post', channel_id: support.id });
    const queued = await h.bot.queue.enqueue(
      'resolvePost',
      { origin: originOf(h), post: { id: post.id } },
      { idempotencyKey: unique('done') },
    );
    expect(await h.settled(queued.jobId)).toBe('completed');
    const ttl = await keyTtl(queued.jobId);
    expect(ttl).toBeGreaterThan(CLAIM_TTL - 60_000);
    expect(ttl).toBeLessThanOrEqual(CLAIM_TTL);
  });
});
