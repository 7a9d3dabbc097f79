/**
 * A job that stalls out after its telling began. Found by the fault suite (seed 489031209): a
 * comment applied, its job's last run marked the telling started and was killed before the
 * message went out, and the job then stalled more often than allowed. The stalled job's handler
 * kept quiet because an outcome "began to be told", so the person heard only "the service is
 * busy, I will add the comment again" and never the outcome.
 *
 * Now the message is kept with the telling's mark — in the log where the telling is made inside
 * the run (a cluster), in the index of pending tellings where it goes with the job's completion
 * (tellAfterCompletion.ts) — and a slash command's outcome (which replaces the same note) is told
 * again when such a job stalls out: here, by the sweep of pending tellings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STALLED_OUT } from '../../src/engine/bullmq.ts';
import { TELL_STEP } from '../../src/engine/stepLog.ts';
import { queueKeys } from '../../src/store/keys.ts';
import { originOf, responses, responseTexts, run, unique } from '../jobs/helpers.ts';
import { type Harness, startHarness } from '../support/harness.ts';

describe('a job that stalls out after its telling began', () => {
  let h: Harness;
  beforeAll(async () => {
    // A 1 s lock: the sweep of pending tellings looks every second.
    h = await startHarness({ env: { JOB_LOCK_MS: '1000' } });
  });
  afterAll(() => h.close());

  it('is told its outcome again, replacing the same note, so the person hears it once', async () => {
    const org = h.emulator.org();
    const someone = org.authorOf([...org.members.values()].find((m) => !m.is_deactivated)!);
    const support = [...org.channels.values()].find((c) => c.name === 'support')!;
    const post = org.createPost(someone, { content_markdown: 'a post', channel_id: support.id });
    const origin = originOf(h);
    const { state, job } = await run(h, 'createComment', {
      origin,
      post: { id: post.id },
      text: unique('stalled out'),
    });
    expect(state).toBe('completed');
    const [outcome] = responseTexts(h, origin);
    expect(outcome).toContain('Comment added to');

    // As its last run left it had its completion been lost with Redis after the telling's mark:
    // the telling began, and its outcome is pending in the index.
    const log = job.progress as { steps: Record<string, { started?: boolean; done?: boolean }> };
    expect(log.steps[TELL_STEP]?.started).toBe(true);
    expect(log.steps[TELL_STEP]?.done).toBeUndefined();
    // The outcome's confirmation (taken out of the index) goes with the next job's mark, or on
    // its own after a moment: once a next job has completed, it is written.
    expect(
      (await run(h, 'createComment', { origin: originOf(h), post: { id: post.id }, text: unique('next') }))
        .state,
    ).toBe('completed');
    // Stalled out rather than completed: failed, its completion gone, its telling still pending.
    const queueKey = `${h.prefix}:${h.queue.name}`;
    const index = queueKeys(queueKey);
    await h.bot.store.redis.zrem(`${queueKey}:completed`, job.id!);
    await h.bot.store.redis.zadd(`${queueKey}:failed`, Date.now(), job.id!);
    await h.bot.store.redis.zadd(index.tellings(), 0, job.id!);
    await h.bot.store.redis.hset(
      index.tellingMessages(),
      job.id!,
      JSON.stringify({ origin, message: { text: outcome } }),
    );
    const before = responses(h, origin).length;
    const path = `/response/${origin.responseId}`;
    const again = h.slack.waitFor((c) => c.path === path && responses(h, origin).indexOf(c) >= before);
    // What BullMQ's stalled check emits when a job stalled more often than allowed: its handler
    // leaves the telling to the sweep (nothing of it is in the log), which tells it, once.
    h.worker!.emit('failed', job, new Error(STALLED_OUT), 'active');

    const call = await again;
    expect(call.args.text).toBe(outcome);
    expect(call.args.replace_original).toBe(true);
    // One outcome for the person: the same message, replacing the same note.
    expect(new Set(responseTexts(h, origin))).toEqual(new Set([outcome]));
    expect(responses(h, origin).length).toBe(before + 1);
  });
});
