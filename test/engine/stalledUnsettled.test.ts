/**
 * A stalled-out job whose worker died before it settled it. BullMQ tells only the worker that
 * fails a stalled-out job (its `failed` event); that worker tells the person, or gives the job
 * its one more run (stalledPartWay.test.ts). Killed in between — or between the extra run's
 * mark and putting the job back — it left the job failed and the person told nothing. Now every
 * worker sweeps its queue's failed set: what nobody settled is settled there, once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readLog, type StepLog } from '../../src/engine/stepLog.ts';
import type { Origin } from '../../src/operations/schemas.ts';
import { appPostsWith, originOf, unique } from '../jobs/helpers.ts';
import { type Harness, TEAM } from '../support/harness.ts';
import { expectPostedOnce, finalsAt, losingRuns, startStallingHarness, toldAt } from './stalling.ts';

const CREATE = 'POST /v2/posts';

describe('a stalled-out job nobody settled', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startStallingHarness();
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  /**
   * A post created in #engineering whose runs stall out, and which nobody settles; its extra run,
   * once it has one, finishes.
   */
  const unsettledCreate = (origin: Origin, text: string) =>
    losingRuns(
      h,
      'createPost',
      { origin, channel: { name: 'engineering' }, content: text },
      CREATE,
      (job) => !readLog(job).stalledRerun,
      { unsettled: true },
    );

  it('runs once more from a sweep: the card is posted and the person hears "Posted" once; a job its worker settled is left alone', async () => {
    // Settled by its own worker: told once that it may have gone through.
    const settledText = unique('settled by its worker');
    const settledOrigin = originOf(h);
    const first = await losingRuns(
      h,
      'createPost',
      { origin: settledOrigin, channel: { name: 'engineering' }, content: settledText },
      CREATE,
      () => true,
    );
    try {
      await first.stalledOut;
      await toldAt(h, settledOrigin, 'may have gone through');
      expect(await h.settled(first.jobId)).toBe('failed');
    } finally {
      first.detach();
    }

    // Failed after it, and never settled by its worker.
    const text = unique('never settled');
    const origin = originOf(h);
    const second = await unsettledCreate(origin, text);
    try {
      await second.stalledOut;
      await toldAt(h, origin, 'Posted to');
      expect(await h.settled(second.jobId)).toBe('completed');
    } finally {
      second.detach();
    }
    expectPostedOnce(h, origin, text);
    // The sweep that settled the second had read the first, which failed before it: still one message.
    expect(finalsAt(h, settledOrigin)).toHaveLength(1);
  }, 60_000);

  it('an extra run from a sweep that stalls out too, with nobody to settle it either, is told once', async () => {
    const text = unique('extra run stalled too');
    const origin = originOf(h);
    const { jobId, detach } = await losingRuns(
      h,
      'createPost',
      { origin, channel: { name: 'engineering' }, content: text },
      CREATE,
      () => true,
      { unsettled: 2 },
    );
    try {
      await toldAt(h, origin, 'may have gone through');
      expect(await h.settled(jobId)).toBe('failed');
    } finally {
      detach();
    }
    expect(appPostsWith(h, text)).toHaveLength(1);
    expect(finalsAt(h, origin)).toHaveLength(1);
  }, 60_000);

  it('an extra run marked but never begun is begun by a sweep, and told once', async () => {
    const text = unique('extra run lost');
    const origin = originOf(h);
    const { jobId, stalledOut, detach } = await unsettledCreate(origin, text);
    try {
      await stalledOut;
      // What its worker wrote before it died: the extra run's mark, with the job still failed.
      const job = await h.bot.queue.queueFor(TEAM).getJob(jobId);
      const marked: StepLog = { ...readLog(job!), stalledRerun: true };
      await job!.updateProgress(marked as unknown as object);
      await toldAt(h, origin, 'Posted to');
      expect(await h.settled(jobId)).toBe('completed');
    } finally {
      detach();
    }
    expectPostedOnce(h, origin, text);
  }, 40_000);
});
