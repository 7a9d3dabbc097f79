/**
 * A write fenced by a BullMQ job's lock: made only while the lock still holds the token of the
 * run that writes, and extending that lock. The step log's marks are such writes
 * (jobs/steps.ts); a store script can make one beside its own work, so that a mark and what
 * rides on it cost one round trip (cards.ts `showingMarked`).
 */

/** What a fenced write of a job's step log needs. */
export interface JobFence {
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
