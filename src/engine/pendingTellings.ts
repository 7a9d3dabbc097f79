/**
 * Outcomes told after their job completed (tellAfterCompletion.ts), kept beside the queue
 * shard's keys until their telling is confirmed: an index (job id -> when marked, or when its
 * worker last said it is still telling) and the tellings themselves. A telling whose worker
 * stopped before confirming it is claimed by a sweep and told again.
 */
import type { Result } from 'ioredis';
import { fenceLua, type JobFence, type PendingTelling, pendingArgs, pendingLua } from '../store/fence.ts';
import { queueKeys } from '../store/keys.ts';
import type { Redis } from '../store/redis.ts';

/** A job's fenced step-log write with its outcome kept pending; 0 when the lock is not the run's. */
const MARK_SCRIPT = `${fenceLua({ job: 1, lock: 2 }, { token: 1, lockMs: 2, progress: 3 })}
${pendingLua({ index: 3, messages: 4 }, { jobId: 4, at: 5, telling: 6, confirmedFrom: 7 })}
return 1`;

/**
 * Claims the tellings marked before ARGV[1] (at most ARGV[2]). Of a job that completed, that
 * completed and was trimmed away since (gone), or that failed, the telling is taken out and
 * answered (id, then telling): a run marks its telling only once it has done its work, and no
 * failure is told after that mark (the job's log says the telling began), so a job that stalled
 * out or failed later is told the outcome its run reached. Of a job that runs again, it is left
 * in with the time ARGV[4], to be looked at again (its new run tells, and overwrites it). Job
 * hashes are `ARGV[3] .. id`, in the queue's slot.
 */
const CLAIM_SCRIPT = `local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, id in ipairs(due) do
  if redis.call('ZSCORE', KEYS[3], id) or redis.call('ZSCORE', KEYS[4], id)
    or redis.call('EXISTS', ARGV[3] .. id) == 0 then
    table.insert(out, id)
    table.insert(out, redis.call('HGET', KEYS[2], id) or '')
    redis.call('ZREM', KEYS[1], id)
    redis.call('HDEL', KEYS[2], id)
  else
    redis.call('ZADD', KEYS[1], ARGV[4], id)
  end
end
return out`;

/** Takes told ids (ARGV) out of the index and its tellings: one command, one round trip. */
const CONFIRM_SCRIPT = `redis.call('ZREM', KEYS[1], unpack(ARGV))
redis.call('HDEL', KEYS[2], unpack(ARGV))
return 1`;

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
        `${queueKey}:completed`,
        `${queueKey}:failed`,
        String(before),
        max,
        `${queueKey}:`,
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
