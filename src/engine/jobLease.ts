/**
 * A key held by one job at a time, across its retries and runs: taken when it is free, already
 * the job's, or held by a job that has finished (its record gone, or completed or failed for
 * good) — but a job failed for stalling is finished only once its log says its failure was told,
 * since until then it may run once more (stalledRerun.ts). A job that finds it held waits its
 * turn (WaitTurnError: no attempt spent, nobody told).
 */

import type { Job } from 'bullmq';
import { DELETE_IF_HOLDS } from '../store/lua.ts';
import type { Redis } from '../store/redis.ts';
import { JOB_FIELDS, queueLayout, STALLED_OUT } from './bullmq.ts';
import { WaitTurnError } from './errors.ts';
import { engineScript } from './lua.ts';

/** Takes the lease when it is free, the job's, or its holder has finished (lua/jobLeaseTake.lua). */
const TAKE_SCRIPT = engineScript('jobLeaseTake');

export interface JobLease {
  /** takes the lease for the job, or throws WaitTurnError */
  take(): Promise<void>;
  release(): Promise<void>;
}

/**
 * The lease `key` for `job`, held at most `leaseMs`. `key` is read in one script with the
 * holder's job hash: on a cluster it must be in the job's queue's slot.
 */
export function jobLease(redis: Redis, key: string, job: Job, leaseMs: number, why?: string): JobLease {
  // The holder's job hash is in the job's queue.
  const { jobPrefix } = queueLayout(job.queueQualifiedName);
  const me = String(job.id);
  return {
    async take() {
      const taken = await redis.eval(
        TAKE_SCRIPT,
        1,
        key,
        me,
        String(leaseMs),
        jobPrefix,
        STALLED_OUT,
        JOB_FIELDS.finishedOn,
        JOB_FIELDS.failedReason,
        JOB_FIELDS.progress,
      );
      if (taken !== 1) throw new WaitTurnError(200 + Math.floor(Math.random() * 300), why);
    },
    async release() {
      await redis.eval(DELETE_IF_HOLDS, 1, key, me);
    },
  };
}
