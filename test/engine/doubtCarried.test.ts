/**
 * A step in doubt stays in doubt. Here a comment's first send is held by the service longer than
 * the send's window (the worker lost the job meanwhile, as when its lock expires during a Redis
 * outage), so the run that takes the job over looks for the comment before it has landed, finds
 * nothing, and sends again — refused. That refusal used to mark the step "not in doubt": no later
 * run looked for the first send again, the person was told "Could not add the comment", and the
 * held send then landed. Every later run now looks first, and the person never hears "could not".
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FaultEvent, HandledEvent } from '../../src/sandbox/emulator/index.ts';
import { originOf, responseTexts, unique } from '../jobs/helpers.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const COMMENTS = 'POST /v2/posts/{post_id}/comments';

describe('a send held past its window, then refusals', () => {
  let h: Harness;
  beforeAll(async () => {
    // A 1 s lock, handed over quickly; a send's window of 1 + 2 × 2 + 2 = 7 s.
    h = await startHarness({
      env: { JOB_LOCK_MS: '1000', COLLAB_TIMEOUT_MS: '2000', COLLAB_CONNECT_TIMEOUT_MS: '1000' },
    });
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  it('keeps looking for the held send: one comment, never told "could not"', async () => {
    const org = h.emulator.org();
    const someone = org.authorOf([...org.members.values()].find((m) => !m.is_deactivated)!);
    const support = [...org.channels.values()].find((c) => c.name === 'support')!;
    const post = org.createPost(someone, { content_markdown: 'a post', channel_id: support.id });
    // The 1st send is applied 9 s after it arrives (past its 7 s window); every later one is refused.
    const held = h.emulator.faults.add({ route: COMMENTS, times: 1, latencyMs: 9000 });
    h.emulator.faults.add({ route: COMMENTS, times: Infinity, status: 503 });

    const origin = originOf(h);
    const text = unique('held send');
    let heldRequest: FaultEvent['request'] | undefined;
    const heldApplied = new Promise<void>((resolve) => {
      const onHandled = ({ request }: HandledEvent) => {
        if (request !== heldRequest) return;
        h.emulator.events.off('handled', onHandled);
        resolve();
      };
      h.emulator.events.on('handled', onHandled);
    });
    // As the first send arrives, its run loses the job (its lock gone, as after a long outage).
    // Listening before the enqueue: on a busy machine the worker can reach the send before the
    // enqueue's answer is back here; the lock goes while the send is held.
    let lockKey: Promise<string> | undefined;
    const onFault = ({ request, fault }: FaultEvent) => {
      if (fault.id !== held) return;
      heldRequest = request;
      void lockKey?.then((key) => h.bot.store.redis.del(key));
    };
    h.emulator.events.on('fault', onFault);
    const enqueued = h.bot.queue.enqueue(
      'createComment',
      { origin, post: { id: post.id }, text },
      { idempotencyKey: `test-${randomBytes(8).toString('hex')}` },
    );
    lockKey = enqueued.then((queued) => `${h.prefix}:operations:${queued.jobId}:lock`);
    try {
      await h.settled((await enqueued).jobId);
      await heldApplied;
    } finally {
      h.emulator.events.off('fault', onFault);
    }

    const ours = org.commentsOf(post.id).filter((c) => c.content_markdown.includes(text));
    expect(ours).toHaveLength(1);
    const finals = responseTexts(h, origin).filter((t) => !t.startsWith(':hourglass'));
    expect(finals).toHaveLength(1);
    expect(finals[0]).not.toMatch(/Could not add the comment:/);
    expect(finals[0]).toMatch(/Comment added to|may have gone through/);
  }, 40_000);
});
