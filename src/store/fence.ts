/**
 * A write fenced by a job's lock: made only while the lock still holds the token of the run that
 * writes, and extending that lock (lua/includes/fence.lua). The step log's marks are such writes
 * (engine/runLog.ts); a store script can make one beside its own work, so that a mark and what
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
  /** the field of the job's hash the log is kept in */
  field: string;
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

/** A pending telling's arguments in lua/includes/pending.lua's order: id, when, telling, then the confirmed ids. */
export function pendingArgs(pending: PendingTelling): [string, string, string, ...string[]] {
  return [pending.jobId, pending.at, pending.telling, ...pending.confirmed];
}
