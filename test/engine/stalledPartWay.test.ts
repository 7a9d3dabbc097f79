/**
 * A job that stalls out part way. Seen in the fault suite (seed 455122323): a post created and a
 * message sent, their jobs' runs killed three times running after the send and before its answer
 * was kept; BullMQ failed the jobs as stalled, and the people were told "it may have gone
 * through, check before trying again" — a post without its card, a check left to the person.
 *
 * Here BullMQ's own stalled check fails the job: its first run sends the create and loses its
 * lock while the answer is on its way (as when its worker is killed), the next two runs lose
 * theirs as they start. Now such a job runs once more: it finds the post its first run created,
 * posts the card and tells the person once. A resolve (its send leaves no mark) runs once more
 * too, and shows the post resolved. A job that stalls out again after that extra run is told as
 * before.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readLog } from '../../src/engine/stepLog.ts';
import { appPostsWith, blockText, originOf, postWithCard, unique, updatesOf } from '../jobs/helpers.ts';
import type { Harness } from '../support/harness.ts';
import { expectPostedOnce, finalsAt, losingRuns, startStallingHarness, toldAt } from './stalling.ts';

const CREATE = 'POST /v2/posts';
const RESOLUTION = 'POST /v2/posts/{post_id}/resolution';

describe('a job that stalled out part way', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startStallingHarness();
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  it('runs once more: the post its first run created gets its card, and the person hears "Posted" once', async () => {
    const text = unique('stalled part way');
    const origin = originOf(h);
    const { jobId, stalledOut, detach } = await losingRuns(
      h,
      'createPost',
      { origin, channel: { name: 'engineering' }, content: text },
      CREATE,
      (job) => !readLog(job).stalledRerun,
    );
    try {
      // Three runs stopped: BullMQ fails the job as stalled…
      await stalledOut;
      // …and the extra run finishes it.
      await toldAt(h, origin, 'Posted to');
      expect(await h.settled(jobId)).toBe('completed');
    } finally {
      detach();
    }
    expect(expectPostedOnce(h, origin, text)).not.toContain('may have gone through');
  }, 40_000);

  it('a resolve runs once more: its card shows it resolved, and the person hears "Resolved" once', async () => {
    const { post, card, title } = await postWithCard(h, unique('Stalled resolve'));
    const updatesBefore = updatesOf(h, card).length;
    const origin = originOf(h);
    const { jobId, stalledOut, detach } = await losingRuns(
      h,
      'resolvePost',
      { origin, post: { id: post.id } },
      RESOLUTION,
      (job) => !readLog(job).stalledRerun,
    );
    try {
      await stalledOut;
      await toldAt(h, origin, 'Resolved');
      expect(await h.settled(jobId)).toBe('completed');
    } finally {
      detach();
    }
    expect(h.emulator.org().posts.get(post.id)?.resolution).toBeTruthy();
    // Every stopped run lost its lock at the telling's mark, before the cards: one update, the extra run's.
    const updates = updatesOf(h, card).slice(updatesBefore);
    expect(updates).toHaveLength(1);
    expect(blockText(updates[0]?.args.blocks)).toContain('*Resolved* by *Ada Lovelace* via Slack');
    const told = finalsAt(h, origin);
    expect(told).toHaveLength(1);
    expect(told[0]).toContain(title);
    expect(told[0]).not.toContain('may have gone through');
  }, 40_000);

  it('stalling out again after its extra run, is told it may have gone through, once', async () => {
    const text = unique('stalled twice');
    const origin = originOf(h);
    const { jobId, stalledOut, detach } = await losingRuns(
      h,
      'createPost',
      { origin, channel: { name: 'engineering' }, content: text },
      CREATE,
      () => true,
    );
    try {
      await stalledOut;
      // The extra run loses its lock too: the next stall fails the job at once.
      expect(await toldAt(h, origin, 'may have gone through')).toContain('Check before trying again');
      expect(await h.settled(jobId)).toBe('failed');
    } finally {
      detach();
    }
    const finals = finalsAt(h, origin);
    expect(finals).toHaveLength(1);
    expect(appPostsWith(h, text)).toHaveLength(1);
  }, 40_000);
});
