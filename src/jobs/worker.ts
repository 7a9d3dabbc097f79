/**
 * The worker: runs each operation's processor and maps failures to queue behaviour, in one place.
 *
 * - rate limited → wait `Retry-After` (or back off) by moving just this job to delayed: no attempt
 *   is spent and other workspaces' jobs keep flowing;
 * - retryable / ambiguous → BullMQ's exponential backoff with jitter, attempts configurable; the
 *   person hears once that it will be retried, and when;
 * - permanent, a UserError, or the last attempt → the person hears the outcome, and the job fails
 *   at once (kept, capped, for inspection).
 * A processor's effects go through `once` (steps.ts), so a re-run never repeats a write.
 *
 * createWorker wires BullMQ to `runJob` (one run: workspace, budget lane, processor) and to
 * `settleStalledOut` (with a sweep for the jobs of a worker that died first); `onFailure` decides
 * what a failure becomes: `waitOutRateLimit`, `settleDoubt`, `tellFailed` or the one retry notice.
 */
import { DelayedError, Job, type Telemetry, UnrecoverableError, Worker } from 'bullmq';
import type { BudgetLane } from '../collab/budget.ts';
import { type CollabError, isCollabError } from '../collab/errors.ts';
import {
  createOutcomes,
  type FinalTelling,
  type Outcomes,
  replacesAck,
  TOLD_MESSAGE_STEP,
  type ToldMessage,
} from '../engine/delivery.ts';
import { retellFailure, type TellingScope, tellFailure, type WriteLog } from '../engine/failureTelling.ts';
import { partlyDone, rerunStalled, rerunsAfterStall } from '../engine/stalledRerun.ts';
import { STALLED_OUT, startStalledSweep } from '../engine/stalledSweep.ts';
import {
  type FenceSettings,
  finalTold,
  isLockLost,
  readLog,
  SENT_OUTSIDE_LOG,
  type StepLog,
  type StepLogOfRun,
  stepLogOf,
  stepsInDoubt,
  stepsLanded,
  TELL_STEP,
} from '../engine/steps.ts';
import { createTellings, earlierTelling, type Tellings } from '../engine/tellAfterCompletion.ts';
import { type Logger, lazyChild } from '../logger.ts';
import { FAILED_CLAIM_TTL } from '../operations/queue.ts';
import { isOperation, type JobData, type Origin } from '../operations/schemas.ts';
import { QUEUE_NAME } from '../operations/shards.ts';
import { describeOperation } from '../render/operationWords.ts';
import {
  failedWords,
  retryNotice,
  unconfirmedWords,
  WORKER_STOPPED,
  warning,
  wentThroughWords,
  workerStoppedWords,
} from '../render/outcomes.ts';
import type { HostBudget } from '../store/budget.ts';
import type { Store } from '../store/index.ts';
import type { RecentSubject } from '../store/recent.ts';
import { type Redis, waitReplicas } from '../store/redis.ts';
import { NOT_CONNECTED, type Workspaces } from '../workspaces/workspaces.ts';
import type { ProcessorContext, ProcessorFeatures, Processors } from './context.ts';
import { causeOf, isPersonsMistake, isUserError, isWaitTurn } from './errors.ts';
import { POLL_DEDUPLICATION } from './pollDispatch.ts';
import { DEFAULT_POLLING, type PollingSettings } from './polling.ts';
import { POLL_OPERATIONS, type Schedules } from './schedules.ts';

export interface WorkerSettings {
  prefix: string;
  /** the queue (shard) this worker serves (operations/shards.ts); default `operations` */
  queueName?: string;
  concurrency: number;
  /**
   * Cluster only: after a step's "started" mark, WAIT until this many replicas have it (at most
   * `timeoutMs`) before its send, so a failover cannot forget that the send may have happened.
   */
  wait?: { replicas: number; timeoutMs: number } | undefined;
  /** first backoff delay when a 429 came without Retry-After */
  backoffMs: number;
  /** how many 429s one operation waits out before it is reported failed */
  maxRateLimitWaits?: number;
  /**
   * How long a job stays locked to its worker (renewed at half this while it runs). A worker
   * that crashed holds its jobs this long, plus up to one stalled check, before they run again.
   */
  lockMs?: number;
  /** BullMQ telemetry (OpenTelemetry when tracing is on): each job's span continues its enqueue's trace */
  telemetry?: Telemetry | undefined;
  /**
   * The longest one API call can take (connect and answer timeouts, with a margin). A run that
   * finds a step started by a run that lost the job waits this long past that start before it
   * looks for what landed. Default 30 s.
   */
  sendWindowMs?: number;
}

export interface WorkerDeps {
  /** BullMQ's connection for the worker (it defines BullMQ's scripts on it) */
  connection: Redis;
  /**
   * The step log's fence (steps.ts): a connection that knows no BullMQ script, so its batches
   * stay cheap; default `connection`.
   */
  stepsConnection?: Redis;
  /**
   * The store's Redis is the queue's (one Redis, no cluster): store work riding on a step's mark
   * goes in the mark's script (steps.ts, Rider). Default false: the mark, then the work.
   */
  storeSharesQueue?: boolean;
  workspaces: Workspaces;
  store: Store;
  processors: Processors;
  schedules: Schedules;
  /** polling intervals; default DEFAULT_POLLING */
  polling?: PollingSettings;
  /** the request budget per service host (store/budget.ts); polls are paced by the poll schedule */
  budget?: HostBudget;
  logger: Logger;
  settings: WorkerSettings;
  now?: () => number;
  /** operator options of features (digests' quiet note, the post url pattern, the slash command) */
  features?: ProcessorFeatures;
}

/** How long a job waits for a turn of the request budget before it is delayed instead (frees its slot). */
const BUDGET_WAIT_MS: Record<BudgetLane, number> = { person: 10_000, background: 5_000 };

/** How often a job's runs may stop (a worker killed or frozen) before BullMQ fails it as stalled. */
export const MAX_STALLED_COUNT = 2;

/**
 * How far back a worker that starts looks for stalled-out jobs nobody settled (stalledSweep.ts):
 * a deployment down for longer leaves older ones as they are.
 */
const STALLED_SWEEP_WINDOW_MS = 24 * 3600_000;

/** How many extra runs a job in doubt gets after its last attempt (see onFailure). */
const MAX_SETTLE_RUNS = 3;

/** Exponential backoff with full jitter, capped at five minutes. */
export function backoffDelay(base: number, n: number, random: () => number = Math.random): number {
  const ceiling = Math.min(5 * 60_000, base * 2 ** Math.min(n, 20));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** What every part of a worker reads: its deps and the settings derived from them. */
interface WorkerScope {
  deps: WorkerDeps;
  logger: Logger;
  settings: WorkerSettings;
  now: () => number;
  maxRateLimitWaits: number;
  /** how a run fences its step log (steps.ts) */
  fence: FenceSettings;
  /** what each job's run named as its subject (ProcessorContext.about), read when it ends */
  subjects: WeakMap<Job, RecentSubject>;
  /** slash commands' outcomes told after completion (one Redis for queue and store); else none */
  tellings?: Tellings | undefined;
}

/** The operations' BullMQ worker; closing it also waits for the outcomes it tells after completion. */
class OperationsWorker extends Worker {
  tellings?: Tellings | undefined;

  override async close(force = false): Promise<void> {
    await super.close(force);
    await this.tellings?.drain();
    this.tellings?.stop();
  }
}

/**
 * Resolves once `worker` has told the outcome of a job it completed (told after completion:
 * tellAfterCompletion.ts); at once for a job it tells nothing after, or did not run.
 */
export function outcomeTold(worker: Worker, jobId: string): Promise<void> {
  return worker instanceof OperationsWorker && worker.tellings
    ? worker.tellings.told(jobId)
    : Promise.resolve();
}

export function createWorker(deps: WorkerDeps): Worker {
  const scope = workerScope(deps);
  const { settings, fence } = scope;
  const worker = new OperationsWorker(
    fence.queueName,
    // Two parameters: BullMQ makes an AbortController for every job of a processor that takes a
    // third (its signal), and nothing here cancels a running job.
    (job: Job, token?: string) => runJob(scope, job, token),
    {
      connection: deps.connection,
      prefix: settings.prefix,
      concurrency: settings.concurrency,
      // Retry delays belong to BullMQ's backoff (set on the queue); the lock covers slow API calls.
      lockDuration: fence.lockMs,
      stalledInterval: Math.min(30_000, fence.lockMs),
      maxStalledCount: MAX_STALLED_COUNT,
      ...(settings.telemetry ? { telemetry: settings.telemetry } : {}),
    },
  );
  worker.tellings = scope.tellings;
  worker.on('failed', (job, error) => {
    if (!job) return;
    // A job that stalled too often never reached onFailure: tell the person here.
    // Should that fail, the sweep below finds it untold and settles it.
    if (error.message === STALLED_OUT)
      settleStalledOut(scope, job).catch((failure: unknown) =>
        scope.logger.warn({ err: failure, jobId: job.id }, 'could not settle a stalled-out job'),
      );
    holdFailedClaim(scope, deps.connection, worker, job);
  });
  // …and should this process die before it has, another worker's sweep settles the job.
  const sweep = startStalledSweep({
    connection: deps.connection,
    queueKey: worker.qualifiedName,
    load: async (id) => (await Job.fromId(worker, id)) ?? undefined,
    settle: (job) => settleStalledOut(scope, job),
    everyMs: Math.min(30_000, fence.lockMs),
    graceMs: fence.lockMs,
    windowMs: STALLED_SWEEP_WINDOW_MS,
    logger: scope.logger,
    now: scope.now,
  });
  worker.on('closing', () => void sweep.stop());
  // Each finished operation of a person is remembered for their App Home (failures in onFailure).
  worker.on('completed', (job) => {
    scope.tellings?.completed(job);
    const origin = (job.data as { origin?: Origin } | undefined)?.origin;
    if (origin && isOperation(job.name)) void rememberOutcome(scope, origin, job, 'completed');
  });
  worker.on('error', (error) => scope.logger.error({ err: error }, 'worker error'));
  return worker;
}

function workerScope(deps: WorkerDeps): WorkerScope {
  const { logger, settings } = deps;
  const now = deps.now ?? Date.now;
  const wait = settings.wait && settings.wait.replicas > 0 ? settings.wait : undefined;
  // WAIT counts the writes of the connection it runs on: the fence's own.
  const stepsConnection = deps.stepsConnection ?? deps.connection;
  const fence: FenceSettings = {
    connection: stepsConnection,
    prefix: settings.prefix,
    queueName: settings.queueName ?? QUEUE_NAME,
    lockMs: settings.lockMs ?? 60_000,
    sendWindowMs: settings.sendWindowMs ?? 30_000,
    now,
    ridersInMark: deps.storeSharesQueue === true,
    ...(wait
      ? {
          replicated: (key: string) => waitReplicas(stepsConnection, [key], wait.replicas, wait.timeoutMs),
        }
      : {}),
  };
  const scope: WorkerScope = {
    deps,
    logger,
    settings,
    now,
    maxRateLimitWaits: settings.maxRateLimitWaits ?? 20,
    fence,
    subjects: new WeakMap(),
  };
  // The mark of a telling after completion carries the cards' look-up (store keys) and leaves with
  // the completion (queue keys): one Redis only.
  if (deps.storeSharesQueue === true) {
    scope.tellings = createTellings({
      connection: deps.connection,
      queueKey: `${settings.prefix}:${fence.queueName}`,
      graceMs: fence.lockMs,
      everyMs: Math.min(30_000, fence.lockMs),
      outcomesOf: (teamId) => outcomesOf(scope, teamId),
      logger,
      now,
    });
  }
  return scope;
}

/** One run of a job: its workspace, its processor in the budget's lane, and its failure handled. */
async function runJob(scope: WorkerScope, job: Job, token?: string): Promise<void> {
  const { deps, logger, now } = scope;
  const operation = job.name;
  if (!isOperation(operation)) throw new UnrecoverableError(`unknown operation ${operation}`);
  // Validated once, before it entered the queue (enqueue, schedules.upsert): operations/schemas.ts.
  const data = job.data as JobData<typeof operation>;
  const jobLogger = lazyChild(logger, { jobId: job.id, operation });
  const steps = stepLogOf(job, token, scope.fence, jobLogger);
  // Told it failed already (its end was then lost with Redis, or its run was killed, and it ran
  // again): nothing more — but the telling's end, should it have been cut short.
  const begun = readLog(job);
  if (begun.failedTold) {
    await finishFailureTelling(scope, job, begun, steps.write);
    throw new UnrecoverableError('already reported failed');
  }
  // Jobs a person asked for carry their origin; scheduled jobs (feeds, digests) only a team.
  const origin: Origin | undefined = 'origin' in data ? data.origin : undefined;
  const teamId = origin?.teamId ?? (data as unknown as { teamId: string }).teamId;
  const workspace = await deps.workspaces.get(teamId);
  const outcomes = workspace ? createOutcomes(workspace.slack, logger, now) : undefined;
  if (!workspace || !outcomes) return refuseWithoutWorkspace(scope, job, teamId, origin);
  const lane = laneOf(origin);
  let sentLanded = false;
  let final: FinalTelling | undefined;
  const ctx: ProcessorContext = {
    job,
    teamId,
    // Every request of the job counts in its lane of the request budget, for its workspace.
    collab: workspace.collab.scoped({ lane, teamId, maxWaitMs: BUDGET_WAIT_MS[lane] }),
    slack: workspace.slack,
    store: deps.store,
    outcomes,
    schedules: deps.schedules,
    polling: deps.polling ?? DEFAULT_POLLING,
    pollStretch: async () => {
      const host = workspace.collabHost;
      return deps.budget && host ? (await deps.budget.status(host)).stretch : 1;
    },
    once: steps.once,
    logger: jobLogger,
    isRerun: job.attemptsStarted > 1 || job.stalledCounter > 0,
    sentLanded: () => {
      sentLanded = true;
    },
    about: (subject) => {
      scope.subjects.set(job, subject);
    },
    features: deps.features,
    // A slash command's outcome is told once the job has completed (tellAfterCompletion.ts).
    tellLater:
      scope.tellings && token
        ? async (telling) => {
            if (final) throw new Error('a run tells its outcome once');
            const earlier = readLog(job).steps[TELL_STEP];
            if (await earlierTelling(earlier, now, scope.fence.sendWindowMs)) final = telling;
          }
        : undefined,
  };
  try {
    // The processor registry is keyed by operation; the cast ties the two together.
    const run = deps.processors[operation] as (d: typeof data, c: ProcessorContext) => Promise<void>;
    await run(data, ctx);
  } catch (error) {
    await onFailure(scope, { job, token, origin, ctx, steps, sentLanded }, error);
  }
  // The telling's mark, sent as BullMQ completes the job: both leave in one write.
  const marked = final && steps.startedFence(TELL_STEP);
  if (final && marked) scope.tellings?.mark(job, marked, final);
}

/** Jobs a person asked for take the budget's person lane; ticks of schedules the background's. */
function laneOf(origin: Origin | undefined): BudgetLane {
  return origin ? 'person' : 'background';
}

/** A job whose workspace is not connected, or gone: the person hears how to fix it, a poller stops. */
async function refuseWithoutWorkspace(
  scope: WorkerScope,
  job: Job,
  teamId: string,
  origin: Origin | undefined,
): Promise<never> {
  const { deps, logger, now } = scope;
  logger.warn({ jobId: job.id, teamId }, 'no workspace for job');
  // Installed but not connected: the person hears how to fix it (multi-workspace mode).
  const slack = await deps.workspaces.unconnectedSlack?.(teamId);
  if (slack && origin) {
    const notice = { text: `:electric_plug: ${NOT_CONNECTED}` };
    await createOutcomes(slack, logger, now).deliver(origin, notice, {
      replaceOriginal: replacesAck(origin),
    });
    throw new UnrecoverableError('workspace not connected');
  }
  // A poller of a workspace that is gone polls nothing, ever: it leaves the poll schedule.
  const poller = job.opts.deduplication?.id;
  if (POLL_OPERATIONS.has(job.name) && poller?.startsWith(POLL_DEDUPLICATION)) {
    await deps.schedules.remove(poller.slice(POLL_DEDUPLICATION.length));
  }
  throw new UnrecoverableError('workspace not installed');
}

/** A run that failed, with what onFailure needs of it. */
interface FailedRun {
  job: Job;
  token: string | undefined;
  origin: Origin | undefined;
  ctx: ProcessorContext;
  steps: StepLogOfRun;
  /** this run's send outside the log landed (ProcessorContext.sentLanded) */
  sentLanded: boolean;
}

/**
 * A processor threw: wait (a turn, a rate limit), run once more to settle a doubt, tell the
 * person the outcome and fail, or tell them once that it will be retried and let BullMQ retry.
 * Always throws: BullMQ reads the thrown error.
 */
async function onFailure(scope: WorkerScope, run: FailedRun, error: unknown): Promise<never> {
  const { job, token, steps } = run;
  // This run lost the job to another run: it must not write, tell or move anything.
  if (isLockLost(error)) throw error;
  // The run ends without completing: the log's deferred done mark goes to Redis first, so the
  // next run skips what this one finished (steps.ts).
  await steps.flush();
  // Waiting for its turn on a post (another comment is in flight): no attempt spent, nobody told.
  if (isWaitTurn(error) && token) {
    await job.moveToDelayed(scope.now() + error.retryAfterMs, token);
    throw new DelayedError();
  }
  const log = readLog(job);
  await keepSendOutsideLog(run, log, error);
  if (isCollabError(error) && error.kind === 'rateLimited') await waitOutRateLimit(scope, run, log, error);

  // Anything else (a Redis hiccup, a bug) is retried like a retryable error: effects are in the step log.
  const refused = isUserError(error) || (isCollabError(error) && error.kind === 'permanent');
  const final = refused || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  const inDoubt = stepsInDoubt(log).length > 0 || log.sentInDoubt === true;
  if (final && !refused && inDoubt) await settleDoubt(scope, run, log);
  if (final) await tellFailed(scope, run, log, error, { refused, inDoubt });

  if (!log.notifiedRetry && !finalTold(log)) {
    log.notifiedRetry = true;
    await steps.write(log);
    const at = scope.now() + backoffDelay(scope.settings.backoffMs, job.attemptsMade, () => 1);
    await tellRetry(run.ctx, run.origin, job.name, at, error);
  }
  throw error;
}

/**
 * What a failed run knows of a send outside the log (steps.ts, SENT_OUTSIDE_LOG) is kept in the
 * log, in one write and only on this failure path: that it landed (its final failure is told as
 * done), or that its answer was lost (no later refusal is told as "could not"). Only the send's
 * own lost answer is a doubt: a read before it whose answer was lost sent nothing (the client
 * names the call that failed, and the send's call is named as its operation).
 */
async function keepSendOutsideLog(run: FailedRun, log: StepLog, error: unknown): Promise<void> {
  const landed = run.sentLanded && !log.sentLanded;
  const doubted =
    SENT_OUTSIDE_LOG.has(run.job.name) &&
    isCollabError(error) &&
    error.kind === 'ambiguous' &&
    error.operation === run.job.name &&
    !log.sentInDoubt;
  if (landed) log.sentLanded = true;
  if (doubted) log.sentInDoubt = true;
  if (landed || doubted) await run.steps.write(log);
}

/**
 * A 429: the job moves to delayed until `Retry-After` (or a backoff), spending no attempt; the
 * person hears once that it waits. Returns when it has waited too often: then it fails or retries.
 */
async function waitOutRateLimit(
  scope: WorkerScope,
  run: FailedRun,
  log: StepLog,
  error: CollabError,
): Promise<void> {
  const { job, token, steps } = run;
  const waited = log.rateLimited ?? 0;
  if (waited >= scope.maxRateLimitWaits || !token) return;
  const delay = error.retryAfterMs ?? backoffDelay(scope.settings.backoffMs, waited);
  const at = scope.now() + delay;
  log.rateLimited = waited + 1;
  // Never a notice after the outcome was told (a failure after the telling began).
  const tellNow = !log.notifiedRetry && !finalTold(log);
  log.notifiedRetry = true;
  await steps.write(log);
  if (tellNow) await tellRetry(run.ctx, run.origin, job.name, at, error);
  run.ctx.logger.info({ delay }, 'rate limited; delayed');
  await job.moveToDelayed(at, token);
  throw new DelayedError();
}

/**
 * A step that started and never ended may have taken effect (a create whose answer was lost).
 * Out of attempts, that doubt is settled first: one more run, without spending an attempt, whose
 * recover looks for what landed — a person is never told "failed" for what may exist. Returns
 * when it cannot run again (no token, or the settle runs are used up).
 */
async function settleDoubt(scope: WorkerScope, run: FailedRun, log: StepLog): Promise<void> {
  const { job, token, steps } = run;
  if (!token || (log.settleRuns ?? 0) >= MAX_SETTLE_RUNS) return;
  log.settleRuns = (log.settleRuns ?? 0) + 1;
  await steps.write(log);
  const delay = backoffDelay(scope.settings.backoffMs, job.attemptsMade);
  run.ctx.logger.info({ delay }, 'last attempt ended in doubt; running once more to settle it');
  await job.moveToDelayed(scope.now() + delay, token);
  throw new DelayedError();
}

/** The last attempt failed, or the service refused: logged, the person told once, the job failed. */
async function tellFailed(
  scope: WorkerScope,
  run: FailedRun,
  log: StepLog,
  error: unknown,
  why: { refused: boolean; inDoubt: boolean },
): Promise<never> {
  const { job, origin, ctx, steps } = run;
  const { refused, inDoubt } = why;
  const operation = job.name;
  if (refused && isPersonsMistake(error)) {
    // The person's input, answered to them: one line, no stack (stacks are for faults).
    const reason = error instanceof Error ? error.message : String(error);
    ctx.logger.info({ reason }, 'operation refused');
  } else {
    ctx.logger.warn({ err: isCollabError(error) ? error.toJSON() : error }, 'operation failed');
  }
  // The success was told already (what failed came after): the person's outcome stands.
  if (origin && !finalTold(log)) {
    const what = describeOperation(operation);
    // Never "could not" for what is, or may be, in the service: a write that landed is said
    // to have gone through; one whose send was ever in doubt, to maybe have.
    const landed = stepsLanded(log).length > 0 || log.sentLanded === true;
    // A refusal of the last send leaves the doubt of an earlier ambiguous one standing.
    const doubted =
      log.sentInDoubt === true ||
      Object.entries(log.steps).some(([name, step]) => name !== TELL_STEP && step.doubted && !step.done);
    const cause = causeOf(error);
    const words = landed
      ? wentThroughWords(what, cause)
      : inDoubt && (!refused || doubted)
        ? unconfirmedWords(what)
        : failedWords(what, cause);
    // Marked before it is told, so no later run of this job tells anything else.
    await tellFailure(tellingScope(scope, job, origin, ctx.outcomes, steps.write), log, origin, {
      text: warning(words),
      outcome: landed ? 'completed' : 'failed',
      reason: words,
    });
  }
  throw new UnrecoverableError(error instanceof Error ? error.message : String(error));
}

/**
 * A job that stalled too often never reached onFailure: the person is told here, unless told
 * already — or, when part of it may be done, it runs once more to finish (stalledRerun.ts).
 * Called by the worker that failed it, or by a sweep when that worker died first: the log's
 * marks (`failedTold`, `stalledRerun`) are written before what they stand for, so that a sweep
 * finds what is left to do. Answers false when nothing was; throws when settling failed (Redis
 * refused a write, say) before the person was told or the job put back, to be tried again.
 */
async function settleStalledOut(scope: WorkerScope, job: Job): Promise<boolean> {
  const origin = (job.data as { origin?: Origin } | undefined)?.origin;
  if (!origin || !isOperation(job.name)) return false;
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
async function settleUntold(scope: WorkerScope, job: Job, origin: Origin, log: StepLog): Promise<void> {
  // Its extra run was marked, and the worker died before it put the job back: put it back now.
  // (After an extra run that stalled out too, BullMQ's count of stalls is past one stall-out.)
  const retryLost = log.stalledRerun === true && job.stalledCounter <= MAX_STALLED_COUNT + 1;
  const kept = retold(log);
  if (!kept && (retryLost || rerunsAfterStall(job.name, log))) {
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
  const outcomes = await outcomesOf(scope, origin.teamId);
  // The outcome began to be told before the last stall, where telling it again replaces the same
  // note (a slash command's response_url): it is told again, as its run may have been killed
  // before the message went out. (Elsewhere a second message would show twice: settleStalledOut
  // leaves it.)
  if (kept) {
    await outcomes?.deliver(origin, kept.message, { replaceOriginal: true });
    return;
  }
  // Part of it may be done: no plain "try again".
  const text = warning(workerStoppedWords(describeOperation(job.name), partlyDone(job.name, log)));
  // Marked before it is told (no run holds a failed job: unfenced), so that nothing else is told.
  // As any final failure: a slash command's note (or its retry notice) gives way to it.
  const write: WriteLog = (told) => job.updateProgress(told);
  await tellFailure(tellingScope(scope, job, origin, outcomes, write), log, origin, {
    text,
    outcome: 'failed',
    reason: WORKER_STOPPED,
  });
}

/** How a job settled outside its run tells the person: undefined when the workspace is gone. */
async function outcomesOf(scope: WorkerScope, teamId: string): Promise<Outcomes | undefined> {
  const ws = await scope.deps.workspaces.get(teamId);
  return ws ? createOutcomes(ws.slack, scope.logger, scope.now) : undefined;
}

/**
 * A failure marked told whose telling may have been cut short (failureTelling.ts): told again.
 * Answers whether there was one.
 */
async function finishFailureTelling(
  scope: WorkerScope,
  job: Job,
  log: StepLog,
  write: WriteLog,
): Promise<boolean> {
  const origin = (job.data as { origin?: Origin } | undefined)?.origin;
  if (!origin || !log.failedTelling) return false;
  const outcomes = await outcomesOf(scope, origin.teamId);
  return retellFailure(tellingScope(scope, job, origin, outcomes, write), log, origin);
}

/** How a job's failure is told, and remembered for the person's App Home. */
function tellingScope(
  scope: WorkerScope,
  job: Job,
  origin: Origin,
  outcomes: Outcomes | undefined,
  write: WriteLog,
): TellingScope {
  return {
    outcomes,
    write,
    remember: (outcome, reason) => rememberOutcome(scope, origin, job, outcome, reason),
    logger: lazyChild(scope.logger, { jobId: job.id, operation: job.name }),
  };
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

/**
 * A failed job's record is kept a week (operations/queue.ts): its idempotency key is held a day
 * longer, so a duplicate is never taken for a new operation while the record that would say
 * otherwise is still there. Only keys with a lifetime are claims (a poller's key lives while its
 * job does, and is left alone); a failed attempt that will be retried is held as long, harmlessly.
 */
function holdFailedClaim(scope: WorkerScope, redis: Redis, worker: Worker, job: Job): void {
  const id = job.deduplicationId;
  if (!id || job.opts.deduplication?.ttl === undefined) return;
  redis
    .pexpire(`${worker.keys.de}:${id}`, FAILED_CLAIM_TTL)
    .catch((error: unknown) =>
      scope.logger.warn({ err: error, jobId: job.id }, 'could not hold the key of a failed job'),
    );
}

/** Each finished operation of a person is remembered for their App Home, with what it acted on. */
async function rememberOutcome(
  scope: WorkerScope,
  origin: Origin,
  job: Job,
  outcome: 'completed' | 'failed',
  reason?: string,
): Promise<void> {
  const subject = scope.subjects.get(job);
  await scope.deps.store.recent
    .record(origin.teamId, origin.userId, {
      operation: job.name,
      ...(subject ? { subject } : {}),
      outcome,
      ...(reason ? { reason } : {}),
      at: new Date(scope.now()).toISOString(),
    })
    .catch((error: unknown) => scope.logger.warn({ err: error }, 'could not remember the outcome'));
}

async function tellRetry(
  ctx: ProcessorContext,
  origin: Origin | undefined,
  operation: string,
  at: number,
  error: unknown,
) {
  if (!origin) return;
  const text = retryNotice(describeOperation(operation), at, causeOf(error));
  await ctx.outcomes.deliver(origin, { text }, { replaceOriginal: replacesAck(origin) });
}
