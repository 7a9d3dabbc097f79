/**
 * A run that lost its job. When the worker cannot renew a job's lock in time (Redis was away for
 * a restart, or the process froze), the stalled check hands the job to a new run while the old
 * one is still going. Both used to carry on: each with its own copy of the step log, both
 * sending, both telling, each overwriting the other's log. Found as two duplicated posts in the
 * fault suite (seed 640628212), and as a message told "Sent" → "busy, will send again" → "Sent"
 * around a Redis SIGKILL.
 *
 * Here the old run is held on an API call while its lock disappears, as it does when the lock
 * expires during a Redis outage; the new run takes the job. The old run must stop at its next
 * step: it neither sends nor tells, and the new run's log is its own.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JobInput, Operation } from '../../src/operations/schemas.ts';
import type { FaultEvent } from '../../src/sandbox/emulator/index.ts';
import { appPostsWith, originOf, responseTexts, unique } from '../jobs/helpers.ts';
import { type Harness, startHarness } from '../support/harness.ts';

describe('a run that lost its job to the stalled check', () => {
  let h: Harness;
  beforeAll(async () => {
    // A 1 s lock: the stalled check runs every second and hands a lockless job over quickly;
    // answers may take 10 s, so the held call outlasts the handover.
    h = await startHarness({ env: { JOB_LOCK_MS: '1000', COLLAB_TIMEOUT_MS: '10000' } });
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  /**
   * Enqueues the operation; the first request on `holdRoute` is held `holdMs` and, as it
   * arrives, the job's lock is deleted. Resolves once the job settled and the old run ended
   * (BullMQ refuses its finish: "Missing lock" when no run holds the job then, "Lock mismatch"
   * while the new run still does — on a busy machine the new run can outlast the held call).
   */
  async function runLosingLock<O extends Operation>(
    operation: O,
    data: JobInput<O>,
    holdRoute: string,
  ): Promise<'completed' | 'failed'> {
    h.emulator.faults.add({ route: holdRoute, latencyMs: 6000, times: 1 });
    // Listening before the enqueue: on a busy machine the worker can take the job and reach the
    // held call before the enqueue's answer is back here. The lock is deleted while the call is
    // held (6 s), once the job's id is known.
    let lockKey: Promise<string> | undefined;
    const onFault = ({ request }: FaultEvent) => {
      if (request.route === holdRoute) void lockKey?.then((key) => h.bot.store.redis.del(key));
    };
    h.emulator.events.on('fault', onFault);
    const enqueued = h.bot.queue.enqueue(operation, data, {
      idempotencyKey: `test-${randomBytes(8).toString('hex')}`,
    });
    lockKey = enqueued.then((queued) => `${h.prefix}:${h.queue.name}:${queued.jobId}:lock`);
    try {
      const queued = await enqueued;
      const worker = h.worker!;
      const oldRunEnded = new Promise<void>((resolve) => {
        const onError = (error: Error) => {
          const ended = [`Missing lock for job ${queued.jobId}`, `Lock mismatch for job ${queued.jobId}`];
          if (ended.some((words) => error.message.includes(words))) {
            worker.off('error', onError);
            resolve();
          }
        };
        worker.on('error', onError);
      });
      const state = await h.settled(queued.jobId);
      await oldRunEnded;
      return state;
    } finally {
      h.emulator.events.off('fault', onFault);
    }
  }

  it('a post is created once and told once', async () => {
    const origin = originOf(h);
    const text = unique('lost its lock');
    const state = await runLosingLock(
      'createPost',
      { origin, channel: { name: 'engineering' }, content: text },
      'GET /v2/channels',
    );
    expect(state).toBe('completed');
    expect(appPostsWith(h, text)).toHaveLength(1);
    expect(responseTexts(h, origin).filter((t) => t.includes('Posted to'))).toHaveLength(1);
  });

  it("a resolve is told once: the old run's telling finds the lock gone, and tells nothing", async () => {
    const org = h.emulator.org();
    const someone = org.authorOf([...org.members.values()].find((m) => !m.is_deactivated)!);
    const support = [...org.channels.values()].find((c) => c.name === 'support')!;
    const post = org.createPost(someone, {
      content_markdown: unique('resolved once'),
      channel_id: support.id,
    });
    const origin = originOf(h);
    // The old run's resolve is held past the handover; the new run resolves and tells. Then the
    // old run comes back to the telling's mark (with the cards' look-up): the lock is not its own.
    const state = await runLosingLock(
      'resolvePost',
      { origin, post: { id: post.id } },
      'POST /v2/posts/{post_id}/resolution',
    );
    expect(state).toBe('completed');
    expect(org.posts.get(post.id)?.resolution).toBeTruthy();
    const finals = responseTexts(h, origin).filter((t) => !t.startsWith(':hourglass'));
    expect(finals).toHaveLength(1);
    expect(finals[0]).toContain('Resolved');
  });

  it('a message refused once is sent once, and told "busy" then "Sent": never a notice after the outcome', async () => {
    const threadId = [...h.emulator.org().threads.values()][0]!.id;
    // Whichever run sends first is refused once (the new run: the old one is held).
    h.emulator.faults.add({ route: 'POST /v2/threads/{thread_id}/messages', status: 503, times: 1 });
    const origin = originOf(h);
    const text = unique('told once');
    const state = await runLosingLock('sendDm', { origin, threadId, text }, 'GET /v2/members');
    expect(state).toBe('completed');
    const told = responseTexts(h, origin);
    const finals = told.filter((t) => !t.startsWith(':hourglass'));
    expect(finals).toHaveLength(1);
    expect(finals[0]).toContain('Sent to thread');
    expect(told.at(-1)).toBe(finals[0]);
    const sent = [...h.emulator.org().messages.values()].filter((m) => m.content_markdown.includes(text));
    expect(sent).toHaveLength(1);
  });
});
