/**
 * One run's writes of its job's step log, fenced by the run's lock: each goes through only while
 * the run still holds the job (and extends its lock), else it throws LockLostError. A mark that
 * nothing depends on yet is deferred: kept in memory, it rides on the next write (docs/engine.md,
 * "The fence" and "Lean writes").
 */
import type { Job } from 'bullmq';
import type { Result } from 'ioredis';
import type { JobFence } from '../store/fence.ts';
import type { Redis } from '../store/redis.ts';
import { JOB_FIELDS, queueKeyOf, queueLayout } from './bullmq.ts';
import { LockLostError } from './errors.ts';
import { engineScript } from './lua.ts';
import { readLog, type StepLog } from './stepLog.ts';

/** Checks the lock is this run's and extends it; writes the log when one is given (lua/stepLogFence.lua). */
const FENCE_SCRIPT = engineScript('stepLogFence');

/** The field of the job's hash that keeps its step log: BullMQ's progress. */
const LOG_FIELD = JOB_FIELDS.progress;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    stepLogFence(
      job: string,
      lock: string,
      token: string,
      lockMs: string,
      progress: string,
      field: string,
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

/** One run's log as it reaches Redis. */
export interface RunLog {
  /** the job's key, whose writes a cluster's WAIT waits for */
  readonly jobKey: string;
  read(): StepLog;
  /** writes the log durably (with any deferred mark); throws LockLostError when this run no longer holds the job */
  write(log: StepLog): Promise<void>;
  /**
   * writes the log durably with `rider`'s work (Rider); when the work fails nothing was written,
   * and `undo` takes the new mark out of the log in memory again
   */
  writeWith(log: StepLog, rider: Rider, undo: () => void): Promise<void>;
  /** keeps a mark in memory; the next durable write carries it */
  defer(log: StepLog): void;
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
}

export function runLogOf(job: Job, token: string | undefined, settings: FenceSettings): RunLog {
  const now = settings.now ?? Date.now;
  const layout = queueLayout(queueKeyOf(settings.prefix, settings.queueName));
  const jobKey = layout.job(String(job.id));
  const lockKey = layout.lock(jobKey);
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
    const held = await connection.stepLogFence(jobKey, lockKey, token, lockMs, progress, LOG_FIELD);
    if (held !== 1) throw new LockLostError(job.id);
  }

  async function write(value: StepLog): Promise<void> {
    deferred = false;
    try {
      await fenced(JSON.stringify(value));
    } catch (error) {
      deferred = true;
      throw error;
    }
    job.progress = value as unknown as object;
  }

  async function writeWith(value: StepLog, rider: Rider, undo: () => void): Promise<void> {
    if (token === undefined || !settings.ridersInMark) {
      try {
        await rider.alone();
      } catch (error) {
        undo();
        throw error;
      }
      await write(value);
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
        field: LOG_FIELD,
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

  function defer(value: StepLog): void {
    job.progress = value as unknown as object;
    deferred = true;
  }

  return {
    jobKey,
    read: () => readLog(job),
    write,
    writeWith,
    defer,
    fence: () => (deferred ? write(readLog(job)) : fenced('')),
    flush: async () => {
      if (deferred) await write(readLog(job));
    },
    startedFence(name) {
      if (token === undefined) return undefined;
      const current = readLog(job);
      current.steps[name] = { started: true, until: now() + settings.sendWindowMs };
      job.progress = current as unknown as object;
      return {
        job: jobKey,
        lock: lockKey,
        token,
        lockMs,
        progress: JSON.stringify(current),
        field: LOG_FIELD,
      };
    },
  };
}
