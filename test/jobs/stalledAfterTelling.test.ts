/**
 * A job that stalls out after its telling began. Found by the fault suite (seed 489031209): a
 * comment applied, its job's last run marked the telling started and was killed before the
 * message went out, and the job then stalled more often than allowed. The stalled job's handler
 * kept quiet because an outcome "began to be told", so the person heard only "the service is
 * busy, I will add the comment again" and never the outcome.
 *
 * Now the message is kept in the log before the telling starts, and a slash command's outcome
 * (which replaces the same note) is told again when such a job stalls out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TELL_STEP } from '../../src/jobs/steps.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { originOf, responses, responseTexts, run, unique } from './helpers.ts';

describe('a job that stalls out after its telling began', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
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

    // As its last run left it when it was killed while telling: the telling started, not done.
    const log = job.progress as { steps: Record<string, { started?: boolean; done?: boolean }> };
    expect(log.steps[TELL_STEP]?.started).toBe(true);
    delete log.steps[TELL_STEP]!.done;
    const before = responses(h, origin).length;
    const path = `/response/${origin.responseId}`;
    const again = h.slack.waitFor((c) => c.path === path && responses(h, origin).indexOf(c) >= before);
    // What BullMQ's stalled check emits when a job stalled more often than allowed.
    h.worker!.emit('failed', job, new Error('job stalled more than allowable limit'), 'active');

    const call = await again;
    expect(call.args.text).toBe(outcome);
    expect(call.args.replace_original).toBe(true);
    // One outcome for the person: the same message, replacing the same note.
    expect(new Set(responseTexts(h, origin))).toEqual(new Set([outcome]));
  });
});
