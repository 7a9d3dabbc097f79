/**
 * A job that stalled out: its runs stopped (a worker killed, or frozen past its lock) more often
 * than MAX_STALLED_COUNT, and BullMQ failed it without a run to tell anyone. Settled here by the
 * worker that failed it, or by any worker's sweep (stalledSweep.ts) should that one die first:
 * its outcome told again, one more run (stalledRerun.ts), or its failure told (docs/engine.md,
 * "Stalled-out jobs").
 */
import type { Job } from 'bullmq';
import type { Origin } from '../operations/schemas.ts';
import { WORKER_STOPPED, warning, workerStoppedWords } from '../render/outcomes.ts';
import { retellFailure, tellFailure, type WriteLog } from './failureTelling.ts';
import { type EngineScope, originOf, tellingScope } from './scope.ts';
import { partlyDone, rerunStalled, rerunsAfterStall } from './stalledRerun.ts';
import { finalTold, readLog, type StepLog, TELL_STEP } from './stepLog.ts';
import { TOLD_MESSAGE_STEP, type ToldMessage } from './tell.ts';

/** How often a job's runs may stop (a worker killed or frozen) before BullMQ fails it as stalled. */
export const MAX_STALLED_COUNT = 2;

/**
 * A job that stalled too often never reached the failure policy: the person is told here, unless
 * told already — or, when part of it may be done, it runs once more to finish (stalledRerun.ts).
 * The log's marks (`failedTold`, `stalledRerun`) are written before what they stand for, so that
 * a sweep finds what is left to do. Answers false when nothing was; throws when settling failed
 * (Redis refused a write, say) before the person was told or the job put back, to be tried again.
 */
export async function settleStalledOut(scope: EngineScope, job: Job): Promise<boolean> {
  const origin = originOf(job);
  if (!origin || !scope.operations.runs(job.name)) return false;
  const log = readLog(job);
  // Told already, unless that telling was cut short (failureTelling.ts).
  if (log.failedTold) return finishFailureTelling(scope, job, log, (told) => job.updateProgress(told));
  // Its outcome began to be told before the last stall, and telling it again would not replace
  // the same note (retold, below): nothing left to do.
  if (finalTold(log) && !retold(log)) return false;
  await settleUntold(scope, job, origin, log);
  return true;
}

/**
 * settleStalledOut for a job with something left to do: its outcome told again, or it runs once
 * more, or its failure told. Whatever can fail comes before the failure's mark.
 */
async function settleUntold(scope: EngineScope, job: Job, origin: Origin, log: StepLog): Promise<void> {
  const sendsOutsideLog = scope.operations.sentOutsideLog.has(job.name);
  // Its extra run was marked, and the worker died before it put the job back: put it back now.
  // (After an extra run that stalled out too, BullMQ's count of stalls is past one stall-out.)
  const retryLost = log.stalledRerun === true && job.stalledCounter <= MAX_STALLED_COUNT + 1;
  const kept = retold(log);
  if (!kept && (retryLost || rerunsAfterStall(sendsOutsideLog, log))) {
    // Part of it may be done: it runs once more to finish (stalledRerun.ts). Should it not be put
    // back, this throws, to be tried again, rather than tell a failure it need not.
    await rerunStalled(job, log);
    scope.logger.info(
      { jobId: job.id },
      retryLost
        ? 'stalled out part way: its extra run was lost; running it now'
        : 'stalled out part way: running it once more to finish it',
    );
    return;
  }
  const outcomes = await scope.operations.reach(origin.teamId);
  // The outcome began to be told before the last stall, where telling it again replaces the same
  // note (a slash command's response_url): it is told again, as its run may have been killed
  // before the message went out. (Elsewhere a second message would show twice: settleStalledOut
  // leaves it.)
  if (kept) {
    await outcomes?.deliver(origin, kept.message, { replaceOriginal: true });
    return;
  }
  // Part of it may be done: no plain "try again".
  const what = scope.operations.describe(job.name);
  const text = warning(workerStoppedWords(what, partlyDone(sendsOutsideLog, log)));
  // Marked before it is told (no run holds a failed job: unfenced), so that nothing else is told.
  // As any final failure: a slash command's note (or its retry notice) gives way to it.
  const write: WriteLog = (told) => job.updateProgress(told);
  await tellFailure(tellingScope(scope, job, origin, outcomes, write), log, origin, {
    text,
    outcome: 'failed',
    reason: WORKER_STOPPED,
  });
}

/**
 * A failure marked told whose telling may have been cut short (failureTelling.ts): told again.
 * Answers whether there was one.
 */
export async function finishFailureTelling(
  scope: EngineScope,
  job: Job,
  log: StepLog,
  write: WriteLog,
): Promise<boolean> {
  const origin = originOf(job);
  if (!origin || !log.failedTelling) return false;
  const outcomes = await scope.operations.reach(origin.teamId);
  return retellFailure(tellingScope(scope, job, origin, outcomes, write), log, origin);
}

/**
 * The message to tell again of a job whose telling began and never finished, where telling it
 * again replaces the same note (a slash command's response_url); undefined elsewhere. (A telling
 * marked to go with the job's completion keeps its message in the index of pending tellings,
 * whose sweep tells it: tellAfterCompletion.ts.)
 */
function retold(log: StepLog): ToldMessage | undefined {
  const kept = log.steps[TOLD_MESSAGE_STEP]?.value as ToldMessage | undefined;
  const tell = log.steps[TELL_STEP];
  return tell?.started && !tell.done && kept?.replaceOriginal ? kept : undefined;
}
