/**
 * Two comments of the app on one post, the first in doubt. A comment whose answer was lost is
 * recovered by the post's comment count; before, another comment of the app landing on the same
 * post meanwhile grew the count, the first was taken as landed though it never was, and its
 * person was told "Comment added" for nothing. Now a comment holds the post until it is known to
 * have landed or not, and the other waits its turn — also while its job, stalled out, waits for
 * the one more run that recovers it (found by the fault suite, seed 685620466).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STALLED_OUT } from '../../src/engine/bullmq.ts';
import { commentLeaseKey } from '../../src/jobs/commentLease.ts';
import type { FaultEvent } from '../../src/sandbox/emulator/index.ts';
import { type Harness, startHarness, TEAM } from '../support/harness.ts';
import { originOf, responseTexts, run, unique } from './helpers.ts';

const COMMENTS = 'POST /v2/posts/{post_id}/comments';

describe('comments of the app on one post, one of them in doubt', () => {
  let h: Harness;
  beforeAll(async () => {
    // A retry a second later: the other comment has every chance to land before it.
    h = await startHarness({ env: { JOB_BACKOFF_MS: '1000' } });
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  it('the comment whose connection dropped before it applied is sent again; both land once, both told', async () => {
    const org = h.emulator.org();
    const someone = org.authorOf([...org.members.values()].find((m) => !m.is_deactivated)!);
    const support = [...org.channels.values()].find((c) => c.name === 'support')!;
    const post = org.createPost(someone, { content_markdown: 'a busy post', channel_id: support.id });
    h.emulator.faults.add({ route: COMMENTS, drop: 'beforeApply', times: 1 });

    const first = { origin: originOf(h), text: unique('first, in doubt') };
    const second = { origin: originOf(h), text: unique('second') };
    // As the first comment's connection drops, another person's comment on the post is queued.
    let secondJob: Promise<string> | undefined;
    const onFault = ({ request }: FaultEvent) => {
      if (request.route !== COMMENTS || secondJob) return;
      secondJob = h.bot.queue
        .enqueue(
          'createComment',
          { origin: second.origin, post: { id: post.id }, text: second.text },
          { idempotencyKey: `test-${randomBytes(8).toString('hex')}` },
        )
        .then((queued) => queued.jobId);
    };
    h.emulator.events.on('fault', onFault);
    try {
      const { state } = await run(h, 'createComment', {
        origin: first.origin,
        post: { id: post.id },
        text: first.text,
      });
      expect(state).toBe('completed');
      expect(secondJob).toBeDefined();
      expect(await h.settled(await secondJob!)).toBe('completed');
      for (const { origin, text } of [first, second]) {
        expect(org.commentsOf(post.id).filter((c) => c.content_markdown.includes(text))).toHaveLength(1);
        expect(responseTexts(h, origin).filter((t) => t.includes('Comment added'))).toHaveLength(1);
      }
    } finally {
      h.emulator.events.off('fault', onFault);
    }
  });

  it('a comment whose job stalled out holds the post until its failure is told: another waits its turn', async () => {
    const org = h.emulator.org();
    const someone = org.authorOf([...org.members.values()].find((m) => !m.is_deactivated)!);
    const support = [...org.channels.values()].find((c) => c.name === 'support')!;
    const post = org.createPost(someone, { content_markdown: 'a post in doubt', channel_id: support.id });
    // A comment's job that stalled out, its comment in doubt, holding the post: BullMQ has failed
    // it, and it waits for the one more run that recovers the comment by the count (stalledRerun.ts).
    const stalled = await h.queue.add(
      'createComment',
      { origin: originOf(h), post: { id: post.id }, text: unique('in doubt') },
      { delay: 3_600_000 },
    );
    const redis = h.bot.store.redis;
    const jobKey = `${h.queue.qualifiedName}:${stalled.id}`;
    await redis.hset(jobKey, { finishedOn: String(Date.now()), failedReason: STALLED_OUT });
    const lease = commentLeaseKey(h.bot.store.space, h.queue.qualifiedName, TEAM, post.id);
    await redis.set(lease, String(stalled.id), 'PX', 600_000);

    const other = { origin: originOf(h), text: unique('waits its turn') };
    let otherId: string | undefined;
    const waited = new Promise<void>((resolve) => {
      const onDelayed = ({ jobId }: { jobId: string }) => {
        if (jobId !== otherId) return;
        h.queueEvents.off('delayed', onDelayed);
        resolve();
      };
      h.queueEvents.on('delayed', onDelayed);
    });
    otherId = (
      await h.bot.queue.enqueue(
        'createComment',
        { origin: other.origin, post: { id: post.id }, text: other.text },
        { idempotencyKey: `test-${randomBytes(8).toString('hex')}` },
      )
    ).jobId;
    const settled = h.settled(otherId);
    // It waits its turn rather than comment on the post held.
    expect(await Promise.race([waited.then(() => 'waited'), settled.then(() => 'went ahead')])).toBe(
      'waited',
    );
    expect(org.commentsOf(post.id)).toHaveLength(0);

    // Its failure told (its log says so): the post is free, and the other comment goes on.
    await redis.hset(jobKey, { progress: JSON.stringify({ steps: {}, failedTold: true }) });
    expect(await settled).toBe('completed');
    expect(org.commentsOf(post.id).map((c) => c.content_markdown)).toEqual([
      expect.stringContaining(other.text),
    ]);
    expect(responseTexts(h, other.origin).filter((t) => t.includes('Comment added'))).toHaveLength(1);
    await stalled.remove();
  });
});
