/**
 * A durable step log kept in the job's progress, so an operation that runs again (a retry,
 * a worker killed mid-job, a stalled job) never repeats an effect that already happened.
 *
 * `once(name, run, recover)`:
 * - a step that finished returns its saved result without running again;
 * - a step that started but never recorded an end (the request may have reached the service)
 *   first asks `recover` whether the effect exists, and re-runs only if it does not — unless its
 *   send was answered with a refusal (`refused`: provably not applied), which is simply sent again;
 *   a step that was ever in doubt stays `doubted` (every later run recovers first, and a final
 *   failure is told as "may have gone through");
 * - otherwise it records "started" durably (only if it has a `recover`: without one, a step that
 *   started and never ended simply runs again), runs, and records the result.
 *
 * Fenced by the job's lock. Every write of the log, and the check before any step runs, is one
 * Redis script that goes through only while this run still holds the job's BullMQ lock (and
 * extends it). A run that lost its lock — Redis was away or the process froze longer than the
 * lock, and the stalled check handed the job to another run — stops at its next step with
 * {@link LockLostError}: it neither starts an effect nor overwrites the new run's log.
 *
 * Lean writes. A mark that must be durable before anything else happens — a step *started*
 * before its send, the check before a step without a recover, anything the worker writes before
 * it tells or moves the job — is written (and fenced) at once. A step's *done* mark is not: it
 * rides on the next write of the log (the next step's start, or the worker's write when the run
 * fails), since until then nothing depends on it — a run that dies first finds the step started,
 * not done, and recovers it as it would had the answer been lost. A run that completes needs no
 * more of its log (the job never runs again), so its last done mark is never written. The send
 * it may have had in flight is covered by the started mark's `until` (the latest moment that
 * send can still be answered): a run that finds a started step waits until then before it
 * recovers, so it never looks for an effect that is still on its way.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Job } from 'bullmq';
import type { Result } from 'ioredis';
import { isCollabError } from '../collab/errors.ts';
import { fenceLua, type JobFence } from '../store/fence.ts';
import type { Redis } from '../store/redis.ts';

export interface StepRecord {
  started: true;
  done?: true;
  value?: unknown;
  /**
   * The last send of a step with a recover was answered with a status that says it was not
   * applied (429, 4xx, 5xx) or never left (connection refused) — it is not in doubt.
   */
  refused?: true;
  /**
   * An earlier send of this step was ambiguous (it may have applied): a later refusal does not
   * clear that doubt, so every later run looks for what landed, and a final failure is told as
   * "may have gone through", never as "failed".
   */
  doubted?: true;
  /** epoch ms: after this, the send that marked the step started can no longer be in flight */
  until?: number;
  /**
   * A step with a recover (a write) that finished: its effect is done (in the service, or in
   * Slack), so a failure after it must not be told as "could not" (worker.ts).
   */
  landed?: true;
}

export interface StepLog {
  steps: Record<string, StepRecord>;
  rateLimited?: number;
  notifiedRetry?: true;
  /** extra runs after the last attempt, to settle a step in doubt (worker.ts) */
  settleRuns?: number;
  /** the job stalled out part way and was given its one more run (stalledRerun.ts) */
  stalledRerun?: true;
  /** the person was told the operation failed: no later run may do anything or tell anything */
  failedTold?: true;
  /**
   * the failure's message, from its mark until it is out, where telling it again replaces the same
   * note (failureTelling.ts): whoever finds it here tells it again
   */
  failedTelling?: FailedTelling;
  /** a send outside the log ({@link SENT_OUTSIDE_LOG}) lost its answer: it may have gone through */
  sentInDoubt?: true;
  /** a send outside the log landed, and what came after it failed: it went through */
  sentLanded?: true;
}

/** A failure's message, and how the person's recent operations on App Home show it. */
export interface FailedTelling {
  text: string;
  /** 'completed' when its write went through and what came after it failed */
  outcome: 'completed' | 'failed';
  /** why, in the words the person was told */
  reason: string;
}

/**
 * Operations whose one effect is sent with no step of the log, because sending it again changes
 * nothing: resolving a post (the service overwrites the resolution with the same) and reopening
 * one. Nothing marks their send, so a run that stopped, or whose answer was lost, may have sent
 * it: such a failure is told as "may have gone through", never as "could not"; a job of theirs
 * that stalls out runs once more instead (stalledRerun.ts).
 */
export const SENT_OUTSIDE_LOG: ReadonlySet<string> = new Set(['resolvePost', 'unresolvePost']);

/** The step that tells the person the outcome (delivery.ts). */
export const TELL_STEP = 'tell';

/** This run no longer holds the job's lock: another run has (or will have) the job. */
export class LockLostError extends Error {
  override name = 'LockLostError';
  constructor(jobId: string | undefined) {
    super(`lost the lock of job ${jobId ?? '?'}: another run owns it now`);
  }
}

export function isLockLost(error: unknown): error is LockLostError {
  return error instanceof LockLostError;
}

/** Steps that started, never ended, and may have taken effect (their answer was lost). */
export function stepsInDoubt(log: StepLog): string[] {
  return Object.entries(log.steps)
    .filter(([name, step]) => name !== TELL_STEP && step.started && !step.done && !step.refused)
    .map(([name]) => name);
}

/** Writes (steps with a recover) that finished: their effect is done. */
export function stepsLanded(log: StepLog): string[] {
  return Object.entries(log.steps)
    .filter(([name, step]) => name !== TELL_STEP && step.done && step.landed)
    .map(([name]) => name);
}

/** The final outcome started being told: nothing after it may tell anything else. */
export function finalTold(log: StepLog): boolean {
  return Boolean(log.failedTold || log.steps[TELL_STEP]?.started);
}

export function readLog(job: Job): StepLog {
  const p = job.progress;
  if (p && typeof p === 'object' && 'steps' in p) return p as unknown as StepLog;
  return { steps: {} };
}

/**
 * The log of a failed job that an operator runs again (`npm run jobs -- retry`): what it did
 * stays done, so no effect is repeated; what it told and how it waited is forgotten, so the run
 * goes on from there and tells its outcome — without this, a job whose failure was told would
 * refuse to run at all.
 */
export function reopenedLog(log: StepLog): StepLog {
  const { failedTold, failedTelling, notifiedRetry, settleRuns, rateLimited, stalledRerun, ...kept } = log;
  return kept;
}

/** Checks the lock is this run's and extends it; writes the progress when one is given. */
const FENCE_SCRIPT = `${fenceLua({ job: 1, lock: 2 }, { token: 1, lockMs: 2, progress: 3 })}
return 1`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    stepLogFence(
      job: string,
      lock: string,
      token: string,
      lockMs: string,
      progress: string,
    ): Result<number, Context>;
  }
}

/** The fence as a defined command: sent by its SHA (EVALSHA), not its text, on every write. */
function withFence(connection: Redis): Redis {
  if (typeof (connection as Partial<Redis>).stepLogFence !== 'function') {
    connection.defineCommand('stepLogFence', { numberOfKeys: 2, lua: FENCE_SCRIPT });
  }
  return connection;
}

export interface FenceSettings {
  /** the Redis of the queue */
  connection: Redis;
  /** the queue's key prefix (BullMQ's `prefix`) and name */
  prefix: string;
  queueName: string;
  /** the lock's duration, renewed by every fenced write */
  lockMs: number;
  /** the longest a step's send can take (connect + answer timeouts, with a margin) */
  sendWindowMs: number;
  now?: () => number;
  /**
   * Resolves once the job's writes so far are on replicas (a Redis Cluster's WAIT); awaited
   * after a "started" mark, before the send it guards. Absent: nothing to wait for (one Redis).
   */
  replicated?: (jobKey: string) => Promise<unknown>;
  /** The store's Redis is the queue's (one Redis): a step's rider goes in its mark's script. */
  ridersInMark?: boolean;
}

/** Where a run's step log says what happened to its sends (a job's child logger). */
export interface StepEvents {
  info(fields: Record<string, unknown>, message: string): void;
}

/** The step log of one run of a job, its writes fenced by the run's lock `token`. */
export interface StepLogOfRun {
  read(): StepLog;
  /** writes the log durably (with any deferred mark); throws LockLostError when this run no longer holds the job */
  write(log: StepLog): Promise<void>;
  /** checks (and extends) the lock, writing a deferred mark if there is one; throws LockLostError when lost */
  fence(): Promise<void>;
  /** writes a deferred mark, if there is one (before a run ends other than by completing) */
  flush(): Promise<void>;
  /**
   * Step `name` marked started in the log, written elsewhere: the fence of that write (a mark that
   * leaves with the job's completion, tellAfterCompletion.ts), with the whole log, deferred marks
   * included. Undefined for a run without a lock.
   */
  startedFence(name: string): JobFence | undefined;
  once: Once;
}

export type Once = <T>(
  name: string,
  run: () => Promise<T>,
  recover?: () => Promise<T | undefined>,
  options?: StepOptions,
) => Promise<T>;

/**
 * Store work that rides on a step's started mark (StepOptions.rider): where the store's Redis is
 * the queue's, one script makes the mark's fenced write and the work (one round trip where two
 * were); elsewhere (a cluster: the job's keys and the store's live in different slots) the work
 * is done first and the mark written after it. Either way a failure of the work leaves no mark.
 */
export interface Rider {
  /**
   * the work and the mark's fenced write in one script, all or nothing; false: the lock is not the
   * run's (nothing written). `on`: the connection to send it on (default the store's).
   */
  withMark(fence: JobFence, on?: Redis): Promise<boolean>;
  /** the work alone, before the mark */
  alone(): Promise<void>;
}

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
  const now = settings.now ?? Date.now;
  const jobKey = `${settings.prefix}:${settings.queueName}:${job.id}`;
  const lockKey = `${jobKey}:lock`;

  const connection = withFence(settings.connection);
  const lockMs = String(settings.lockMs);
  /** the log in job.progress holds a mark not written to Redis yet */
  let deferred = false;

  async function fenced(progress: string): Promise<void> {
    if (token === undefined) {
      // A job run without a lock (never by the worker): unfenced, as BullMQ itself would write it.
      if (progress !== '') await job.updateProgress(JSON.parse(progress) as object);
      return;
    }
    const held = await connection.stepLogFence(jobKey, lockKey, token, lockMs, progress);
    if (held !== 1) throw new LockLostError(job.id);
  }

  async function writeNow(value: StepLog): Promise<void> {
    deferred = false;
    try {
      await fenced(JSON.stringify(value));
    } catch (error) {
      deferred = true;
      throw error;
    }
    job.progress = value as unknown as object;
  }

  /**
   * Writes the log durably with `rider`'s work: in one script where it can (Rider). When the work
   * fails, nothing was written, and `undo` takes the new mark out of the log in memory again (so
   * that the run's failure is not read as what the mark says).
   */
  async function writeWith(value: StepLog, rider: Rider, undo: () => void): Promise<void> {
    if (token === undefined || !settings.ridersInMark) {
      try {
        await rider.alone();
      } catch (error) {
        undo();
        throw error;
      }
      await writeNow(value);
      return;
    }
    let held: boolean;
    try {
      held = await rider.withMark({
        job: jobKey,
        lock: lockKey,
        token,
        lockMs,
        progress: JSON.stringify(value),
      });
    } catch (error) {
      undo();
      deferred = true;
      throw error;
    }
    if (!held) {
      deferred = true;
      throw new LockLostError(job.id);
    }
    deferred = false;
    job.progress = value as unknown as object;
  }

  /** Keeps the mark in memory; the next durable write carries it. */
  function defer(value: StepLog): void {
    job.progress = value as unknown as object;
    deferred = true;
  }

  const log: StepLogOfRun = {
    read: () => readLog(job),
    write: (value) => writeNow(value),
    fence: () => (deferred ? writeNow(readLog(job)) : fenced('')),
    flush: async () => {
      if (deferred) await writeNow(readLog(job));
    },
    startedFence(name) {
      if (token === undefined) return undefined;
      const current = readLog(job);
      current.steps[name] = { started: true, until: now() + settings.sendWindowMs };
      job.progress = current as unknown as object;
      return { job: jobKey, lock: lockKey, token, lockMs, progress: JSON.stringify(current) };
    },
    async once<T>(
      name: string,
      run: () => Promise<T>,
      recover?: () => Promise<T | undefined>,
      options: StepOptions = {},
    ) {
      const current = readLog(job);
      const step = current.steps[name];
      if (step?.done) return step.value as T;
      const attempt = job.attemptsMade + 1;
      // Started, never ended, not refused: its send may have applied. Once looked for, a step
      // stays doubted whatever its later sends get (a send can apply after the answer was lost).
      const inDoubt = Boolean(step?.started && !step.refused && recover);
      if (inDoubt && recover) {
        // The send that marked it may still be on its way (its answer lost, or its run lost the
        // lock): wait it out, so that what it applies is there to be found.
        const wait = (step?.until ?? 0) - now();
        if (wait > 0) await delay(Math.min(wait, settings.sendWindowMs));
        const found = await recover();
        events?.info(
          { step: name, attempt, found: found !== undefined },
          'step in doubt: looked for what landed',
        );
        if (found !== undefined) {
          current.steps[name] = { started: true, done: true, value: found, landed: true };
          defer(current);
          return found;
        }
      }
      const doubted = inDoubt || step?.doubted === true;
      // "Started" matters only to a step that can recover: one without a recover runs again anyway.
      const until = now() + settings.sendWindowMs;
      if (recover) {
        current.steps[name] = { started: true, until, ...(doubted ? { doubted: true as const } : {}) };
        if (options.rider) {
          await writeWith(current, options.rider, () => {
            if (step) current.steps[name] = step;
            else delete current.steps[name];
          });
        } else {
          await log.write(current);
        }
        // A failover that lost the mark would let the next run send again instead of recovering.
        await settings.replicated?.(jobKey);
      } else if (!options.repeatable) {
        await log.fence();
      }
      let value: T;
      try {
        value = await run();
      } catch (error) {
        if (recover && isCollabError(error)) {
          // Refused (and never in doubt before): provably not applied. Ambiguous: in doubt, and
          // its send may still apply until `until`: the next run waits that out before it looks.
          const failed = readLog(job);
          const stillDoubted = error.kind === 'ambiguous' || doubted;
          failed.steps[name] = stillDoubted
            ? { started: true, until: error.kind === 'ambiguous' ? until : now(), doubted: true }
            : { started: true, refused: true };
          events?.info(
            {
              step: name,
              attempt,
              kind: error.kind,
              reason: error.reason,
              status: error.status,
              marked: stillDoubted ? 'doubted' : 'refused',
            },
            'step send failed',
          );
          await log.write(failed);
        }
        throw error;
      }
      const after = readLog(job);
      after.steps[name] = { started: true, done: true, value, ...(recover ? { landed: true as const } : {}) };
      defer(after);
      return value;
    },
  };
  return log;
}
