/**
 * A key held by one job at a time, across its retries and runs: taken when it is free, already
 * the job's, or held by a job that has finished (its record gone, or completed or failed for
 * good) — but a job failed for stalling is finished only once its log says its failure was told,
 * since until then it may run once more (stalledRerun.ts). A job that finds it held waits its
 * turn (WaitTurnError: no attempt spent, nobody told).
 */
import type { Job } from 'bullmq';
import type { Redis } from '../store/redis.ts';
import { WaitTurnError } from './errors.ts';
import { STALLED_OUT } from './stalledSweep.ts';

/**
 * Takes the lease for ARGV[1] when it is free, already this job's, or held by a job that has
 * finished (its hash gone, or `finishedOn` set: completed or failed for good — but a job failed
 * for stalling, ARGV[4], is finished only once its log says its failure was told). ARGV[3] is the
 * queue's key prefix, so the holder's job hash is ARGV[3] .. holder. The log is the job's progress
 * (stepLog.ts), JSON as BullMQ keeps it.
 */
const TAKE_SCRIPT = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then
  local job = ARGV[3] .. holder
  if redis.call('EXISTS', job) == 1 then
    if not redis.call('HGET', job, 'finishedOn') then return 0 end
    if redis.call('HGET', job, 'failedReason') == ARGV[4] then
      local log = redis.call('HGET', job, 'progress') or ''
      if not string.find(log, '"failedTold":true', 1, true) then return 0 end
    end
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

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
  // `prefix:queue`: the queue's qualified name, the holder's job hash is under it.
  const queueKey = job.queueQualifiedName;
  const me = String(job.id);
  return {
    async take() {
      const taken = await redis.eval(TAKE_SCRIPT, 1, key, me, String(leaseMs), `${queueKey}:`, STALLED_OUT);
      if (taken !== 1) throw new WaitTurnError(200 + Math.floor(Math.random() * 300), why);
    },
    async release() {
      await redis.eval(RELEASE_SCRIPT, 1, key, me);
    },
  };
}
