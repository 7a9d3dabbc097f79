/**
 * Jobs made to stall out, for the tests of what follows (stalledPartWay, stalledUnsettled): every
 * run of the job loses its lock, as when its worker is killed, and BullMQ's stalled check fails it.
 */
import { randomBytes } from 'node:crypto';
import type { Job } from 'bullmq';
import { expect } from 'vitest';
import { STALLED_OUT } from '../../src/engine/bullmq.ts';
import type { JobInput, Operation, Origin } from '../../src/operations/schemas.ts';
import type { FaultEvent } from '../../src/sandbox/emulator/index.ts';
import { appPostsWith, callsOf, responseTexts } from '../jobs/helpers.ts';
import { type Harness, startHarness } from '../support/harness.ts';

/**
 * A harness whose jobs stall out quickly (its settings: STALLING_ENV): a 1 s lock, so the stalled check (and the sweep of
 * what nobody settled) runs every second, and short answer timeouts, so the window a run waits
 * out before it looks for what an earlier run's send applied is short (~5 s).
 */
export const STALLING_ENV: Record<string, string> = {
  JOB_LOCK_MS: '1000',
  COLLAB_CONNECT_TIMEOUT_MS: '500',
  COLLAB_TIMEOUT_MS: '1500',
};

export function startStallingHarness(): Promise<Harness> {
  return startHarness({ env: STALLING_ENV });
}

export interface LosingRunsOptions {
  /**
   * Nobody settles the stall-out: the bot's own `failed` listeners are off until BullMQ has
   * failed the job, as when the worker that failed it died at once. A number: that many
   * stall-outs in a row (its extra run stalls out too).
   */
  unsettled?: boolean | number;
}

/**
 * Enqueues the operation; its runs all lose their lock: the first as its send on `route`
 * reaches the service (held a moment, then applied), then every later run that is `stopped` as
 * it starts. Answers the job id and a promise of the job's first failure as stalled (the
 * worker's `failed` event). Needs a harness with a short lock (the stalled check's period).
 */
export async function losingRuns<O extends Operation>(
  h: Harness,
  operation: O,
  data: JobInput<O> & { origin: Origin },
  route: string,
  stopped: (job: Job) => boolean,
  options: LosingRunsOptions = {},
) {
  h.emulator.faults.add({ route, latencyMs: 500, times: 1 });
  const worker = h.worker!;
  // The job is known by its origin: its first run may start before the enqueue answers.
  const ours = (job: Job | undefined) =>
    (job?.data as { origin?: Origin } | undefined)?.origin?.responseUrl === data.origin.responseUrl;
  let jobId: string | undefined;
  let runs = 0;
  const dropLock = () => h.bot.store.redis.del(`${h.prefix}:${h.queue.name}:${jobId}:lock`);
  const onFault = ({ request }: FaultEvent) => {
    if (request.route === route && jobId) void dropLock();
  };
  const onActive = (job: Job) => {
    if (!ours(job)) return;
    jobId = job.id;
    runs += 1;
    // A job that stalled too often is failed by the worker that takes it next (BullMQ's deferred
    // failure): that taking is no run, and is left alone.
    if (runs > 1 && !job.deferredFailure && stopped(job)) void dropLock();
  };
  const botListeners = options.unsettled ? worker.listeners('failed') : [];
  for (const listener of botListeners) worker.off('failed', listener as () => void);
  const restore = () => {
    for (const listener of botListeners) worker.on('failed', listener as () => void);
    botListeners.length = 0;
  };
  let unsettled = options.unsettled === true ? 1 : options.unsettled || 0;
  let failedOnce: () => void = () => {};
  const stalledOut = new Promise<void>((resolve) => {
    failedOnce = resolve;
  });
  const onFailed = (job: Job | undefined, error: Error) => {
    if (!ours(job) || error.message !== STALLED_OUT) return;
    failedOnce();
    unsettled -= 1;
    if (unsettled > 0) return;
    worker.off('failed', onFailed);
    restore();
  };
  worker.on('failed', onFailed);
  h.emulator.events.on('fault', onFault);
  worker.on('active', onActive);
  const queued = await h.bot.queue.enqueue(operation, data, {
    idempotencyKey: `test-${randomBytes(8).toString('hex')}`,
  });
  const detach = () => {
    h.emulator.events.off('fault', onFault);
    worker.off('active', onActive);
    worker.off('failed', onFailed);
    restore();
  };
  return { jobId: queued.jobId, stalledOut, detach };
}

/**
 * The first message at the origin's response_url holding `words` (the extra run waits out a
 * window); like every final outcome of a slash command, it replaces the command's note.
 */
export async function toldAt(h: Harness, origin: { responseId: string }, words: string): Promise<string> {
  const path = `/response/${origin.responseId}`;
  const call = await h.slack.waitFor((c) => c.path === path && String(c.args.text).includes(words), {
    timeoutMs: 30_000,
  });
  expect(call.args.replace_original).toBe(true);
  return String(call.args.text);
}

/** What the person was told at the origin's response_url, retry notices left out. */
export function finalsAt(h: Harness, origin: { responseId: string }): string[] {
  return responseTexts(h, origin).filter((t) => !t.startsWith(':hourglass'));
}

/**
 * The post holding `text` exists once, its card was posted once, and the person was told
 * "Posted to #engineering" once. Answers what they were told.
 */
export function expectPostedOnce(h: Harness, origin: { responseId: string }, text: string): string {
  const posts = appPostsWith(h, text);
  expect(posts).toHaveLength(1);
  const cards = callsOf(h, 'chat.postMessage').filter((c) => JSON.stringify(c.args).includes(posts[0]!.id));
  expect(cards).toHaveLength(1);
  const finals = finalsAt(h, origin);
  expect(finals).toHaveLength(1);
  expect(finals[0]).toContain('Posted to #engineering');
  return finals[0]!;
}
