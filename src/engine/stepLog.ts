/**
 * The step log of a job: what its runs did, kept in the job's progress in Redis, and what can be
 * read from it (docs/engine.md, "The step log"). Plain data and readers; writing it is the
 * run's (runLog.ts), stepping through it `once`'s (steps.ts).
 */
import type { Job } from 'bullmq';

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
   * Slack), so a failure after it must not be told as "could not".
   */
  landed?: true;
}

export interface StepLog {
  steps: Record<string, StepRecord>;
  rateLimited?: number;
  notifiedRetry?: true;
  /** extra runs after the last attempt, to settle a step in doubt (failure.ts) */
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
  /** a send outside the log (Operations.sentOutsideLog) lost its answer: it may have gone through */
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

/** The step that tells the person the outcome (tell.ts). */
export const TELL_STEP = 'tell';

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

/** A step once in doubt, never finished: a refusal of its last send leaves the doubt standing. */
export function stillDoubted(log: StepLog): boolean {
  return Object.entries(log.steps).some(([name, step]) => name !== TELL_STEP && step.doubted && !step.done);
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
