/**
 * `once(name, run, recover)`: one effect of a processor, once across its job's runs. A step that
 * finished answers its saved value; one whose send may have landed waits out its send window and
 * asks `recover` before it is sent again; one whose send was refused is simply sent again. Marks
 * are fenced writes (runLog.ts); docs/engine.md, "The step log", tells it in full.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Job } from 'bullmq';
import { type CollabError, isCollabError } from '../collab/errors.ts';
import { type FenceSettings, type Rider, type RunLog, runLogOf } from './runLog.ts';
import type { StepLog, StepRecord } from './stepLog.ts';

/** Where a run's step log says what happened to its sends (a job's child logger). */
export interface StepEvents {
  info(fields: Record<string, unknown>, message: string): void;
}

/** The step log of one run of a job, its writes fenced by the run's lock `token`. */
export interface StepLogOfRun extends Omit<RunLog, 'writeWith' | 'defer' | 'jobKey'> {
  once: Once;
}

export type Once = <T>(
  name: string,
  run: () => Promise<T>,
  recover?: () => Promise<T | undefined>,
  options?: StepOptions,
) => Promise<T>;

export interface StepOptions {
  /**
   * Doing it again changes nothing, and a later run wants its value: a value kept for later, a
   * clock read. (A call whose repeat changes nothing and whose answer nobody reads again — resolving
   * a post — is no step at all.) Such a step needs no lock check
   * before it — a run that has lost the job may repeat it harmlessly, and is stopped at its next
   * fenced write — so it costs no round trip: its done mark rides on the log's next write.
   * Only for steps without a recover.
   */
  repeatable?: boolean;
  /** store work that rides on the step's started mark (only for steps with a recover) */
  rider?: Rider;
}

export function stepLogOf(
  job: Job,
  token: string | undefined,
  settings: FenceSettings,
  events?: StepEvents,
): StepLogOfRun {
  const log = runLogOf(job, token, settings);
  return {
    read: log.read,
    write: log.write,
    fence: log.fence,
    flush: log.flush,
    startedFence: log.startedFence,
    once: onceOf({ job, log, settings, events }),
  };
}

/** What `once` works with: the run's job and log, the fence's settings, where it says what it did. */
interface Stepping {
  job: Job;
  log: RunLog;
  settings: FenceSettings;
  events: StepEvents | undefined;
}

function onceOf(s: Stepping): Once {
  const now = s.settings.now ?? Date.now;
  return async function once<T>(
    name: string,
    run: () => Promise<T>,
    recover?: () => Promise<T | undefined>,
    options: StepOptions = {},
  ): Promise<T> {
    const current = s.log.read();
    const step = current.steps[name];
    if (step?.done) return step.value as T;
    // Started, never ended, not refused: its send may have applied. Once looked for, a step
    // stays doubted whatever its later sends get (a send can apply after the answer was lost).
    const inDoubt = Boolean(step?.started && !step.refused && recover);
    if (inDoubt && recover) {
      const found = await lookForLanded(s, name, step, recover);
      if (found !== undefined) {
        current.steps[name] = { started: true, done: true, value: found, landed: true };
        s.log.defer(current);
        return found;
      }
    }
    const doubted = inDoubt || step?.doubted === true;
    const until = now() + s.settings.sendWindowMs;
    if (recover) {
      current.steps[name] = { started: true, until, ...(doubted ? { doubted: true as const } : {}) };
      await markStarted(s, current, name, step, options.rider);
    } else if (!options.repeatable) {
      await s.log.fence();
    }
    let value: T;
    try {
      value = await run();
    } catch (error) {
      if (recover && isCollabError(error)) await markSendFailed(s, name, error, { doubted, until });
      throw error;
    }
    const after = s.log.read();
    after.steps[name] = { started: true, done: true, value, ...(recover ? { landed: true as const } : {}) };
    s.log.defer(after);
    return value;
  };
}

/**
 * A step in doubt: waits until the send that marked it can no longer be in flight (its answer
 * lost, or its run lost the lock), so that what it applies is there to be found, then asks
 * `recover` whether it landed.
 */
async function lookForLanded<T>(
  s: Stepping,
  name: string,
  step: StepRecord | undefined,
  recover: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const now = s.settings.now ?? Date.now;
  const wait = (step?.until ?? 0) - now();
  if (wait > 0) await delay(Math.min(wait, s.settings.sendWindowMs));
  const found = await recover();
  s.events?.info(
    { step: name, attempt: s.job.attemptsMade + 1, found: found !== undefined },
    'step in doubt: looked for what landed',
  );
  return found;
}

/** The started mark of a step with a recover, durable (with its rider's work) before its send. */
async function markStarted(
  s: Stepping,
  marked: StepLog,
  name: string,
  before: StepRecord | undefined,
  rider: Rider | undefined,
): Promise<void> {
  if (rider) {
    await s.log.writeWith(marked, rider, () => {
      if (before) marked.steps[name] = before;
      else delete marked.steps[name];
    });
  } else {
    await s.log.write(marked);
  }
  // A failover that lost the mark would let the next run send again instead of recovering.
  await s.settings.replicated?.(s.log.jobKey);
}

/**
 * A send that failed: refused (and never in doubt before), it provably did not apply; ambiguous,
 * it is in doubt, and may still apply until `until`: the next run waits that out before it looks.
 */
async function markSendFailed(
  s: Stepping,
  name: string,
  error: CollabError,
  sent: { doubted: boolean; until: number },
): Promise<void> {
  const now = s.settings.now ?? Date.now;
  const failed = s.log.read();
  const stillDoubted = error.kind === 'ambiguous' || sent.doubted;
  failed.steps[name] = stillDoubted
    ? { started: true, until: error.kind === 'ambiguous' ? sent.until : now(), doubted: true }
    : { started: true, refused: true };
  s.events?.info(
    {
      step: name,
      attempt: s.job.attemptsMade + 1,
      kind: error.kind,
      reason: error.reason,
      status: error.status,
      marked: stillDoubted ? 'doubted' : 'refused',
    },
    'step send failed',
  );
  await s.log.write(failed);
}
