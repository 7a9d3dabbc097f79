/**
 * The sweep of stalled-out jobs nobody settled: now and then every worker reads its queue's failed
 * set and settles, once (a claim per failure), each job failed as stalled a grace period ago whose
 * log says nobody was told — as the worker that failed it would have, had it not died first. A
 * settling that fails is tried again by the next sweeps for about an hour (docs/engine.md,
 * "Stalled-out jobs").
 */

import type { Job } from 'bullmq';
import type { Result } from 'ioredis';
import type { Logger } from '../logger.ts';
import { queueKeys } from '../store/keys.ts';
import type { Redis } from '../store/redis.ts';
import { JOB_FIELDS, queueLayout, STALLED_OUT } from './bullmq.ts';
import { engineScript } from './lua.ts';

/**
 * A sweep reads this many failed jobs, and then the rest of those that failed at the same time as
 * the last of them (BullMQ fails every job that stalled out at one check with one and the same
 * time); the others wait for the next sweep.
 */
export const SWEEP_PAGE = 500;

/** A job whose settling failed is tried again by this many sweeps before it is given up. */
const TRIES = 120;

/** A page of the failed jobs of a time range, and which of them failed as stalled (lua/failedAsStalled.lua). */
const FAILED_AS_STALLED = engineScript('failedAsStalled');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    failedAsStalled(
      failed: string,
      from: string,
      to: string,
      page: number,
      jobPrefix: string,
      reason: string,
      field: string,
    ): Result<[string, number, ...string[]], Context>;
  }
}

function withScript(redis: Redis): Redis {
  if (typeof (redis as Partial<Redis>).failedAsStalled !== 'function') {
    redis.defineCommand('failedAsStalled', { numberOfKeys: 1, lua: FAILED_AS_STALLED });
  }
  return redis;
}

export interface StalledSweepOptions {
  connection: Redis;
  /** `<prefix>:<queue>`, the queue's keys (BullMQ's `keys.` prefix without the type) */
  queueKey: string;
  /** loads a job of the queue (undefined: gone) */
  load: (id: string) => Promise<Job | undefined>;
  /** settles one stalled-out job as its own worker would have; false: nothing was left to do */
  settle: (job: Job) => Promise<boolean>;
  /** how often to sweep */
  everyMs: number;
  /** how long after its failure a job is left to its own worker */
  graceMs: number;
  /** how far back the first sweep reads */
  windowMs: number;
  logger: Logger;
  now?: () => number;
}

/** A job failed as stalled: its id, and when (its score in the failed set). */
interface Failure {
  id: string;
  at: string;
}

interface Retry {
  failure: Failure;
  tries: number;
  /** giving the claim back failed too: the next try holds it already */
  held: boolean;
}

export interface StalledSweep {
  /** one sweep now (the timer's work); resolves when it is done */
  sweep(): Promise<void>;
  /** no more sweeps; resolves when the one under way is done */
  stop(): Promise<void>;
}

export function startStalledSweep(options: StalledSweepOptions): StalledSweep {
  const { queueKey, logger } = options;
  const now = options.now ?? Date.now;
  const redis = withScript(options.connection);
  let from = String(now() - options.windowMs);
  /** failures whose settling failed (by claim key) -> what the next try needs */
  const retries = new Map<string, Retry>();
  let running: Promise<void> | undefined;
  let stopped = false;
  const layout = queueLayout(queueKey);
  const claimKey = (failure: Failure) => queueKeys(queueKey).sweptClaim(failure.id, failure.at);

  async function settleOne(failure: Failure, held: boolean): Promise<void> {
    // One sweeping process per failure (a job that stalls out again after its extra run is a new
    // one); the claim outlives the window in which the failure can be read.
    if (!held && (await redis.set(claimKey(failure), '1', 'PX', 2 * options.windowMs, 'NX')) !== 'OK') return;
    const job = await options.load(failure.id);
    // Gone, or moved on (run again by an operator, or by its own worker late): nothing to settle.
    if (!job || !(await job.isFailed())) return;
    // Its own worker died before it told anyone, or before the extra run began: worth a line.
    if (await options.settle(job))
      logger.info({ jobId: failure.id, operation: job.name }, 'settled a stalled-out job its worker left');
  }

  /** Settles one failure; when that fails, the claim is given back and the next sweep tries again. */
  async function attempt(failure: Failure, retry?: Retry): Promise<void> {
    const key = claimKey(failure);
    try {
      await settleOne(failure, retry?.held === true);
      retries.delete(key);
    } catch (error) {
      const tries = (retry?.tries ?? 0) + 1;
      const held = await redis.del(key).then(
        () => false,
        () => true,
      );
      if (tries < TRIES) {
        retries.set(key, { failure, tries, held });
        logger.warn({ err: error, jobId: failure.id }, 'could not settle a stalled-out job');
        return;
      }
      retries.delete(key);
      logger.error(
        { err: error, jobId: failure.id },
        'gave up settling a stalled-out job: `npm run jobs -- retry <id>` runs it again',
      );
    }
  }

  async function sweepOnce(): Promise<void> {
    for (const retry of [...retries.values()]) await attempt(retry.failure, retry);
    const to = now() - options.graceMs;
    const [last, full, ...found] = await redis.failedAsStalled(
      layout.failed,
      from,
      String(to),
      SWEEP_PAGE,
      layout.jobPrefix,
      STALLED_OUT,
      JOB_FIELDS.failedReason,
    );
    // Every failure with the last score read was read: the next sweep reads on after it.
    from = full === 1 ? `(${last}` : `(${to}`;
    for (let i = 0; i + 1 < found.length; i += 2) {
      const failure = { id: found[i]!, at: found[i + 1]! };
      if (!retries.has(claimKey(failure))) await attempt(failure);
    }
  }

  const sweep = () => {
    if (stopped) return Promise.resolve();
    running ??= sweepOnce()
      .catch((error: unknown) => logger.warn({ err: error }, 'could not sweep stalled-out jobs'))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void sweep(), options.everyMs);
  timer.unref();
  return {
    sweep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
