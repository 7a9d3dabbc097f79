/**
 * The failure policy, in one place: a processor's failure becomes a wait (a turn, a rate limit:
 * no attempt spent), one more run to settle a doubt, BullMQ's retry after one notice, or the
 * failure told and the job failed (docs/engine.md, "When a run fails").
 */
import { DelayedError, type Job, UnrecoverableError } from 'bullmq';
import { type CollabError, isCollabError } from '../collab/errors.ts';
import type { Origin } from '../operations/schemas.ts';
import { failedWords, retryNotice, unconfirmedWords, warning, wentThroughWords } from '../render/outcomes.ts';
import { replacesAck } from './delivery.ts';
import { causeOf, isLockLost, isPersonsMistake, isUserError, isWaitTurn } from './errors.ts';
import { tellFailure } from './failureTelling.ts';
import { type EngineScope, type RunContext, tellingScope } from './scope.ts';
import { finalTold, readLog, type StepLog, stepsInDoubt, stepsLanded, stillDoubted } from './stepLog.ts';
import type { StepLogOfRun } from './steps.ts';

/** How many extra runs a job in doubt gets after its last attempt (settleDoubt). */
const MAX_SETTLE_RUNS = 3;

/** Exponential backoff with full jitter, capped at five minutes. */
export function backoffDelay(base: number, n: number, random: () => number = Math.random): number {
  const ceiling = Math.min(5 * 60_000, base * 2 ** Math.min(n, 20));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A run that failed, with what the policy needs of it. */
export interface FailedRun {
  job: Job;
  token: string | undefined;
  origin: Origin | undefined;
  run: RunContext;
  steps: StepLogOfRun;
  /** this run's send outside the log landed (RunContext.sentLanded) */
  sentLanded: boolean;
}

/**
 * A processor threw: wait (a turn, a rate limit), run once more to settle a doubt, tell the
 * person the outcome and fail, or tell them once that it will be retried and let BullMQ retry.
 * Always throws: BullMQ reads the thrown error.
 */
export async function onFailure(scope: EngineScope, failed: FailedRun, error: unknown): Promise<never> {
  const { job, token, steps } = failed;
  // This run lost the job to another run: it must not write, tell or move anything.
  if (isLockLost(error)) throw error;
  // The run ends without completing: the log's deferred done mark goes to Redis first, so the
  // next run skips what this one finished.
  await steps.flush();
  // Waiting for its turn (another job holds its lease): no attempt spent, nobody told.
  if (isWaitTurn(error) && token) {
    await job.moveToDelayed(scope.now() + error.retryAfterMs, token);
    throw new DelayedError();
  }
  const log = readLog(job);
  await keepSendOutsideLog(scope, failed, log, error);
  if (isCollabError(error) && error.kind === 'rateLimited') await waitOutRateLimit(scope, failed, log, error);

  // Anything else (a Redis hiccup, a bug) is retried like a retryable error: effects are in the step log.
  const refused = isUserError(error) || (isCollabError(error) && error.kind === 'permanent');
  const final = refused || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  const inDoubt = stepsInDoubt(log).length > 0 || log.sentInDoubt === true;
  if (final && !refused && inDoubt) await settleDoubt(scope, failed, log);
  if (final) await tellFailed(scope, failed, log, error, { refused, inDoubt });

  if (!log.notifiedRetry && !finalTold(log)) {
    log.notifiedRetry = true;
    await steps.write(log);
    const at = scope.now() + backoffDelay(scope.settings.backoffMs, job.attemptsMade, () => 1);
    await tellRetry(scope, failed, at, error);
  }
  throw error;
}

/**
 * What a failed run knows of a send outside the log (Operations.sentOutsideLog) is kept in the
 * log, in one write and only on this failure path: that it landed (its final failure is told as
 * done), or that its answer was lost (no later refusal is told as "could not"). Only the send's
 * own lost answer is a doubt: a read before it whose answer was lost sent nothing (the client
 * names the call that failed, and the send's call is named as its operation).
 */
async function keepSendOutsideLog(
  scope: EngineScope,
  failed: FailedRun,
  log: StepLog,
  error: unknown,
): Promise<void> {
  const { job } = failed;
  const landed = failed.sentLanded && !log.sentLanded;
  const doubted =
    scope.operations.sentOutsideLog.has(job.name) &&
    isCollabError(error) &&
    error.kind === 'ambiguous' &&
    error.operation === job.name &&
    !log.sentInDoubt;
  if (landed) log.sentLanded = true;
  if (doubted) log.sentInDoubt = true;
  if (landed || doubted) await failed.steps.write(log);
}

/**
 * A 429: the job moves to delayed until `Retry-After` (or a backoff), spending no attempt; the
 * person hears once that it waits. Returns when it has waited too often: then it fails or retries.
 */
async function waitOutRateLimit(
  scope: EngineScope,
  failed: FailedRun,
  log: StepLog,
  error: CollabError,
): Promise<void> {
  const { job, token, steps } = failed;
  const waited = log.rateLimited ?? 0;
  if (waited >= scope.maxRateLimitWaits || !token) return;
  const delay = error.retryAfterMs ?? backoffDelay(scope.settings.backoffMs, waited);
  const at = scope.now() + delay;
  log.rateLimited = waited + 1;
  // Never a notice after the outcome was told (a failure after the telling began).
  const noticeDue = !log.notifiedRetry && !finalTold(log);
  log.notifiedRetry = true;
  await steps.write(log);
  if (noticeDue) await tellRetry(scope, failed, at, error);
  failed.run.logger.info({ delay }, 'rate limited; delayed');
  await job.moveToDelayed(at, token);
  throw new DelayedError();
}

/**
 * A step that started and never ended may have taken effect (a create whose answer was lost).
 * Out of attempts, that doubt is settled first: one more run, without spending an attempt, whose
 * recover looks for what landed — a person is never told "failed" for what may exist. Returns
 * when it cannot run again (no token, or the settle runs are used up).
 */
async function settleDoubt(scope: EngineScope, failed: FailedRun, log: StepLog): Promise<void> {
  const { job, token, steps } = failed;
  if (!token || (log.settleRuns ?? 0) >= MAX_SETTLE_RUNS) return;
  log.settleRuns = (log.settleRuns ?? 0) + 1;
  await steps.write(log);
  const delay = backoffDelay(scope.settings.backoffMs, job.attemptsMade);
  failed.run.logger.info({ delay }, 'last attempt ended in doubt; running once more to settle it');
  await job.moveToDelayed(scope.now() + delay, token);
  throw new DelayedError();
}

/** The last attempt failed, or the service refused: logged, the person told once, the job failed. */
async function tellFailed(
  scope: EngineScope,
  failed: FailedRun,
  log: StepLog,
  error: unknown,
  why: { refused: boolean; inDoubt: boolean },
): Promise<never> {
  const { job, origin, run, steps } = failed;
  if (why.refused && isPersonsMistake(error)) {
    // The person's input, answered to them: one line, no stack (stacks are for faults).
    const reason = error instanceof Error ? error.message : String(error);
    run.logger.info({ reason }, 'operation refused');
  } else {
    run.logger.warn({ err: isCollabError(error) ? error.toJSON() : error }, 'operation failed');
  }
  // The success was told already (what failed came after): the person's outcome stands.
  if (origin && !finalTold(log)) {
    const { words, landed } = failureWords(scope.operations.describe(job.name), log, error, why);
    // Marked before it is told, so no later run of this job tells anything else.
    await tellFailure(tellingScope(scope, job, origin, run.outcomes, steps.write), log, origin, {
      text: warning(words),
      outcome: landed ? 'completed' : 'failed',
      reason: words,
    });
  }
  throw new UnrecoverableError(error instanceof Error ? error.message : String(error));
}

/**
 * A final failure in words. Never "could not" for what is, or may be, in the service: a write
 * that landed is said to have gone through; one whose send was ever in doubt, to maybe have.
 */
function failureWords(
  what: string,
  log: StepLog,
  error: unknown,
  why: { refused: boolean; inDoubt: boolean },
): { words: string; landed: boolean } {
  const landed = stepsLanded(log).length > 0 || log.sentLanded === true;
  // A refusal of the last send leaves the doubt of an earlier ambiguous one standing.
  const doubted = log.sentInDoubt === true || stillDoubted(log);
  const cause = causeOf(error);
  const words = landed
    ? wentThroughWords(what, cause)
    : why.inDoubt && (!why.refused || doubted)
      ? unconfirmedWords(what)
      : failedWords(what, cause);
  return { words, landed };
}

/** The one notice that the operation will be tried again, and when. */
async function tellRetry(scope: EngineScope, failed: FailedRun, at: number, error: unknown): Promise<void> {
  const { origin, job, run } = failed;
  if (!origin) return;
  const text = retryNotice(scope.operations.describe(job.name), at, causeOf(error));
  await run.outcomes.deliver(origin, { text }, { replaceOriginal: replacesAck(origin) });
}
