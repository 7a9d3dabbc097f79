/**
 * Outcomes told after their job completed (tellAfterCompletion.ts), kept beside the queue
 * shard's keys until their telling is confirmed: an index (job id -> when marked, or when its
 * worker last said it is still telling) and the tellings themselves. A telling whose worker
 * stopped before confirming it is claimed by a sweep and told again.
 */

import type { Result } from 'ioredis';
import { type JobFence, type PendingTelling, pendingArgs } from '../store/fence.ts';
import { queueKeys } from '../store/keys.ts';
import type { Redis } from '../store/redis.ts';
import { queueLayout } from './bullmq.ts';
import { engineScript } from './lua.ts';

/** A job's fenced step-log write with its outcome kept pending (lua/tellingMark.lua). */
const MARK_SCRIPT = engineScript('tellingMark');

/** Claims the due tellings of jobs that completed, failed or are gone (lua/tellingClaim.lua). */
const CLAIM_SCRIPT = engineScript('tellingClaim');

/** Takes told ids out of the index and its tellings, in one round trip (lua/tellingConfirm.lua). */
const CONFIRM_SCRIPT = engineScript('tellingConfirm');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    tellingMark(
      job: string,
      lock: string,
      index: string,
      messages: string,
      token: string,
      lockMs: string,
      progress: string,
      field: string,
      jobId: string,
      at: string,
      telling: string,
      ...confirmed: string[]
    ): Result<number, Context>;
    tellingConfirm(index: string, messages: string, ...jobIds: string[]): Result<number, Context>;
    tellingClaim(
      index: string,
      messages: string,
      completed: string,
      failed: string,
      before: string,
      max: number,
      jobPrefix: string,
      now: string,
    ): Result<string[], Context>;
  }
}

function withScripts(redis: Redis): Redis {
  if (typeof (redis as Partial<Redis>).tellingMark !== 'function') {
    redis.defineCommand('tellingMark', { numberOfKeys: 4, lua: MARK_SCRIPT });
    redis.defineCommand('tellingClaim', { numberOfKeys: 4, lua: CLAIM_SCRIPT });
    redis.defineCommand('tellingConfirm', { numberOfKeys: 2, lua: CONFIRM_SCRIPT });
  }
  return redis;
}

/** `queueKey`: BullMQ's `<prefix>:<queue>` of the shard whose jobs these are. */
export function tellingStore(redis: Redis, queueKey: string) {
  const scripted = withScripts(redis);
  const k = queueKeys(queueKey);
  const layout = queueLayout(queueKey);
  const index = k.tellings();
  const messages = k.tellingMessages();
  return {
    /** Where a mark keeps a telling (fence.ts `PendingTelling`, without its values). */
    where: { index, messages },
    /** The job's fenced step-log write with `pending` kept; false (nothing written): the lock is not the run's. */
    async mark(fence: JobFence, pending: PendingTelling): Promise<boolean> {
      const held = await scripted.tellingMark(
        fence.job,
        fence.lock,
        index,
        messages,
        fence.token,
        fence.lockMs,
        fence.progress,
        fence.field,
        ...pendingArgs(pending),
      );
      return held === 1;
    },
    /** These tellings were told (at most CONFIRM_BATCH): out of the index. */
    async confirm(jobIds: string[]): Promise<void> {
      if (jobIds.length === 0) return;
      // A script, not a MULTI: on a worker's connection ioredis would copy BullMQ's scripts onto it.
      await scripted.tellingConfirm(index, messages, ...jobIds);
    },
    /** These tellings are still being told by a live worker: not due for a sweep yet. */
    async stillTelling(jobIds: string[], at: number): Promise<void> {
      if (jobIds.length === 0) return;
      await redis.zadd(index, 'XX', ...jobIds.flatMap((id) => [at, id]));
    },
    /** Claims the due tellings of completed jobs (CLAIM_SCRIPT): `[jobId, telling JSON]`. */
    async claimDue(before: number, max: number, now: number): Promise<Array<[string, string]>> {
      const flat = await scripted.tellingClaim(
        index,
        messages,
        layout.completed,
        layout.failed,
        String(before),
        max,
        layout.jobPrefix,
        String(now),
      );
      const claimed: Array<[string, string]> = [];
      for (let i = 0; i + 1 < flat.length; i += 2) claimed.push([flat[i]!, flat[i + 1]!]);
      return claimed;
    },
    /** How many tellings wait for confirmation (tests, metrics). */
    pendingCount: () => redis.zcard(index),
  };
}
export type TellingStore = ReturnType<typeof tellingStore>;
