/**
 * A write fenced by a BullMQ job's lock: made only while the lock still holds the token of the
 * run that writes, and extending that lock. The step log's marks are such writes
 * (engine/steps.ts); a store script can make one beside its own work, so that a mark and what
 * rides on it cost one round trip (cards.ts `showingMarked`).
 */

/** What a fenced write of a job's step log needs. */
export interface JobFence {
  /**
   * An outcome to tell once the job has completed, kept (when the fence holds) where a sweep
   * finds it should its worker stop before it is told (engine/tellAfterCompletion.ts)
   */
  pending?: PendingTelling | undefined;
  /** the job's hash (BullMQ's `<prefix>:<queue>:<id>`) */
  job: string;
  /** the job's lock (`<job>:lock`) */
  lock: string;
  /** the lock's token of the run that writes */
  token: string;
  /** the lock's new lifetime, ms */
  lockMs: string;
  /** the step log to keep as the job's progress; '' writes nothing */
  progress: string;
}

/**
 * The fence in Lua, for a script whose `KEYS[job]`, `KEYS[lock]` and `ARGV[token]`,
 * `ARGV[lockMs]`, `ARGV[progress]` sit at the given positions: it returns 0 when the lock is not
 * the run's (nothing written), and goes on otherwise.
 */
export function fenceLua(
  keys: { job: number; lock: number },
  args: { token: number; lockMs: number; progress: number },
): string {
  return `if redis.call('GET', KEYS[${keys.lock}]) ~= ARGV[${args.token}] then return 0 end
redis.call('PEXPIRE', KEYS[${keys.lock}], ARGV[${args.lockMs}])
if ARGV[${args.progress}] ~= '' then redis.call('HSET', KEYS[${keys.job}], 'progress', ARGV[${args.progress}]) end`;
}

/** An outcome kept with a job's fenced mark until its telling is confirmed (engine/pendingTellings.ts). */
export interface PendingTelling {
  /** `queueKeys().tellings()`: job id -> when marked */
  index: string;
  /** `queueKeys().tellingMessages()`: job id -> the telling */
  messages: string;
  jobId: string;
  /** epoch ms */
  at: string;
  /** JSON `{ origin, message }` */
  telling: string;
  /** ids of earlier tellings told since: taken out of the index in the same write */
  confirmed: string[];
}

/** How many told ids one write takes out of the index at most (Lua's `unpack` has a limit). */
export const CONFIRM_BATCH = 256;

/**
 * The pending telling in Lua, after a fence that held: kept in the index, and the confirmed ids
 * (ARGV from `confirmedFrom` on) taken out of it.
 */
export function pendingLua(
  keys: { index: number; messages: number },
  args: { jobId: number; at: number; telling: number; confirmedFrom: number },
): string {
  return `redis.call('ZADD', KEYS[${keys.index}], ARGV[${args.at}], ARGV[${args.jobId}])
redis.call('HSET', KEYS[${keys.messages}], ARGV[${args.jobId}], ARGV[${args.telling}])
if #ARGV >= ${args.confirmedFrom} then
  redis.call('ZREM', KEYS[${keys.index}], unpack(ARGV, ${args.confirmedFrom}))
  redis.call('HDEL', KEYS[${keys.messages}], unpack(ARGV, ${args.confirmedFrom}))
end`;
}

/** A pending telling's arguments in `pendingLua`'s order: id, when, telling, then the confirmed ids. */
export function pendingArgs(pending: PendingTelling): [string, string, string, ...string[]] {
  return [pending.jobId, pending.at, pending.telling, ...pending.confirmed];
}
