/**
 * One run of a job: its step log fenced by the run's lock, its processor (opened by the product),
 * and its failure handed to the failure policy (failure.ts). A slash command's outcome, handed
 * over with `tellLater`, is marked as the run returns, to leave with the job's completion.
 */
import { type Job, UnrecoverableError } from 'bullmq';
import { lazyChild } from '../logger.ts';
import { onFailure } from './failure.ts';
import { type EngineScope, originOf, type RunContext } from './scope.ts';
import { finishFailureTelling } from './stalledOut.ts';
import { TELL_STEP } from './stepLog.ts';
import { type StepLogOfRun, stepLogOf } from './steps.ts';
import type { FinalTelling, TellLater } from './tell.ts';
import { earlierTelling } from './tellAfterCompletion.ts';

export async function runJob(scope: EngineScope, job: Job, token?: string): Promise<void> {
  if (!scope.operations.runs(job.name)) throw new UnrecoverableError(`unknown operation ${job.name}`);
  const logger = lazyChild(scope.logger, { jobId: job.id, operation: job.name });
  const steps = stepLogOf(job, token, scope.fence, logger);
  // Told it failed already (its end was then lost with Redis, or its run was killed, and it ran
  // again): nothing more — but the telling's end, should it have been cut short.
  const begun = steps.read();
  if (begun.failedTold) {
    await finishFailureTelling(scope, job, begun, steps.write);
    throw new UnrecoverableError('already reported failed');
  }
  const opened = await scope.operations.open(job);
  if ('refused' in opened) throw new UnrecoverableError(opened.refused);
  let sentLanded = false;
  const told: { final?: FinalTelling } = {};
  const run: RunContext = {
    job,
    outcomes: opened.outcomes,
    once: steps.once,
    logger,
    isRerun: job.attemptsStarted > 1 || job.stalledCounter > 0,
    sentLanded: () => {
      sentLanded = true;
    },
    tellLater: tellLaterOf(scope, steps, token, told),
  };
  try {
    await opened.process(run);
  } catch (error) {
    await onFailure(scope, { job, token, origin: originOf(job), run, steps, sentLanded }, error);
  }
  // The telling's mark, sent as BullMQ completes the job: both leave in one write.
  const { final } = told;
  const marked = final && steps.startedFence(TELL_STEP);
  if (final && marked) scope.tellings?.mark(job, marked, final);
}

/**
 * A slash command's outcome is told once the job has completed (tellAfterCompletion.ts): where
 * that can be (one Redis, a run that holds its lock), the run hands its telling over here — unless
 * an earlier run told it through.
 */
function tellLaterOf(
  scope: EngineScope,
  steps: StepLogOfRun,
  token: string | undefined,
  told: { final?: FinalTelling },
): TellLater | undefined {
  if (!scope.tellings || !token) return undefined;
  return async (telling) => {
    if (told.final) throw new Error('a run tells its outcome once');
    const earlier = steps.read().steps[TELL_STEP];
    if (await earlierTelling(earlier, scope.now, scope.fence.sendWindowMs)) told.final = telling;
  };
}
