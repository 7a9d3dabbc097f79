/**
 * One more run for a job that stalled out part way (a post created whose card was never posted, a
 * resolve that may have been sent): that run recovers what landed, finishes and tells the outcome,
 * rather than the person hearing "it may have gone through, check". Once only: BullMQ keeps the
 * job's stall count, so a further stall fails it at once (docs/engine.md, "Stalled-out jobs").
 */
import type { Job } from 'bullmq';
import { finalTold, type StepLog, stepsInDoubt } from './stepLog.ts';

/**
 * Part of the job may be done: a step ended or is in doubt, or it is an operation whose one send
 * leaves no mark (`sendsOutsideLog`: a resolve or reopen), which a stopped run may have made.
 */
export function partlyDone(sendsOutsideLog: boolean, log: StepLog): boolean {
  return (
    sendsOutsideLog || stepsInDoubt(log).length > 0 || Object.values(log.steps).some((step) => step.done)
  );
}

/**
 * The stalled-out job gets one more run: part of it may be done, nothing was told yet, and it
 * has not had its extra run. (A resolve or reopen runs again as a retry would: sending it again
 * changes nothing, and the run shows the post's state on its cards and tells it.)
 */
export function rerunsAfterStall(sendsOutsideLog: boolean, log: StepLog): boolean {
  return !log.stalledRerun && !finalTold(log) && partlyDone(sendsOutsideLog, log);
}

/**
 * Marks the log and moves the failed job back to wait: it will run again (or has moved on
 * already). Throws when it could not be moved and is still failed, or its state is unknown (Redis
 * refused, say): the caller tries again later (stalledSweep.ts).
 *
 * No run holds a failed job, so the mark is written without a fence; a frozen run that wakes
 * later finds its lock gone at its next write and stops (steps.ts).
 */
export async function rerunStalled(job: Job, log: StepLog): Promise<void> {
  const marked: StepLog = { ...log, stalledRerun: true };
  await job.updateProgress(marked as unknown as object);
  try {
    await job.retry('failed');
  } catch (error) {
    // Not in the failed set: it moved on (a retry sent again after a reconnect finds it gone,
    // or an operator retried it). Still failed, or unknown: to be tried again.
    const state = await job.getState().catch(() => 'unknown');
    if (state === 'failed' || state === 'unknown') throw error;
  }
}
