/**
 * What a reliable worker is made of: the queue it serves and its settings, the product's side
 * (Operations: what runs, how a person is reached), and what every part of the worker reads —
 * the fence of its runs' step logs, the tellings it makes after completion.
 */
import type { Job, Telemetry } from 'bullmq';
import { type Logger, lazyChild } from '../logger.ts';
import type { Origin } from '../operations/schemas.ts';
import { type Redis, waitReplicas } from '../store/redis.ts';
import { queueKeyOf } from './bullmq.ts';
import type { Outcomes } from './delivery.ts';
import type { TellingScope, WriteLog } from './failureTelling.ts';
import type { FenceSettings } from './runLog.ts';
import type { Once } from './steps.ts';
import type { TellLater } from './tell.ts';
import { createTellings, type Tellings } from './tellAfterCompletion.ts';

export interface EngineSettings {
  prefix: string;
  /** the queue (shard) this worker serves */
  queueName: string;
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

/** What the engine gives one run of a job's processor. */
export interface RunContext {
  job: Job;
  /** how the job's person is told (delivery.ts); `tell` (tell.ts) tells once across re-runs */
  outcomes: Outcomes;
  /** run an effect once across retries and restarts (steps.ts) */
  once: Once;
  logger: Logger;
  /** true on any run after the first (a retry, or a re-run after a crash or stall) */
  isRerun: boolean;
  /**
   * The operation's one effect, sent outside the step log (Operations.sentOutsideLog), has
   * landed: a failure of what comes after it is told as done, never as "could not".
   */
  sentLanded: () => void;
  /**
   * Takes the run's telling (a slash command's outcome, its last act) to be told once the job has
   * completed (tellAfterCompletion.ts); absent: `tell` tells inside the run.
   */
  tellLater?: TellLater | undefined;
}

/** One run of a job, opened by the product: how its person is told, and its processor. */
export interface OpenedRun {
  outcomes: Outcomes;
  process(run: RunContext): Promise<void>;
}

/** What the product gives the engine: its operations, and how their people are reached. */
export interface Operations {
  /** whether a job of this name is one of the product's operations (any other fails at once) */
  runs(name: string): boolean;
  /** an operation in words, as its outcome texts say it: "add the comment" */
  describe(name: string): string;
  /**
   * Operations whose one effect is sent outside the step log, since sending it again changes
   * nothing (resolving a post): a lost answer of theirs makes a failure "may have gone through",
   * and a job of theirs that stalls out runs once more (docs/engine.md, "Sent outside the log").
   */
  sentOutsideLog: ReadonlySet<string>;
  /**
   * Opens one run of a job: how its person is told, and its processor bound to its team; or why
   * its team cannot be served (having told whom it could): the job then fails at once.
   */
  open(job: Job): Promise<OpenedRun | { refused: string }>;
  /** How the people of a team are told outside a run; undefined when the team is gone. */
  reach(teamId: string): Promise<Outcomes | undefined>;
  /** A person's operation ended (their recent operations on App Home). Never throws. */
  ended(origin: Origin, job: Job, outcome: 'completed' | 'failed', reason?: string): Promise<void>;
}

export interface ReliableWorkerOptions {
  /** BullMQ's connection for the worker (it defines BullMQ's scripts on it) */
  connection: Redis;
  /**
   * The step log's fence (runLog.ts): a connection that knows no BullMQ script, so its batches
   * stay cheap; default `connection`.
   */
  stepsConnection?: Redis | undefined;
  /**
   * The store's Redis is the queue's (one Redis, no cluster): store work riding on a step's mark
   * goes in the mark's script (runLog.ts, Rider), and a slash command's outcome is told after its
   * job completes. Default false: the mark, then the work; the telling inside the run.
   */
  storeSharesQueue?: boolean | undefined;
  settings: EngineSettings;
  operations: Operations;
  logger: Logger;
  now?: (() => number) | undefined;
}

/** What every part of a worker reads: its options and what is derived from them. */
export interface EngineScope {
  operations: Operations;
  logger: Logger;
  settings: EngineSettings;
  now: () => number;
  maxRateLimitWaits: number;
  /** how a run fences its step log (runLog.ts) */
  fence: FenceSettings;
  /** slash commands' outcomes told after completion (one Redis for queue and store); else none */
  tellings?: Tellings | undefined;
}

export function engineScope(options: ReliableWorkerOptions): EngineScope {
  const { logger, settings } = options;
  const now = options.now ?? Date.now;
  const wait = settings.wait && settings.wait.replicas > 0 ? settings.wait : undefined;
  // WAIT counts the writes of the connection it runs on: the fence's own.
  const stepsConnection = options.stepsConnection ?? options.connection;
  const fence: FenceSettings = {
    connection: stepsConnection,
    prefix: settings.prefix,
    queueName: settings.queueName,
    lockMs: settings.lockMs ?? 60_000,
    sendWindowMs: settings.sendWindowMs ?? 30_000,
    now,
    ridersInMark: options.storeSharesQueue === true,
    ...(wait
      ? {
          replicated: (key: string) => waitReplicas(stepsConnection, [key], wait.replicas, wait.timeoutMs),
        }
      : {}),
  };
  const scope: EngineScope = {
    operations: options.operations,
    logger,
    settings,
    now,
    maxRateLimitWaits: settings.maxRateLimitWaits ?? 20,
    fence,
  };
  // The mark of a telling after completion carries the cards' look-up (store keys) and leaves with
  // the completion (queue keys): one Redis only.
  if (options.storeSharesQueue === true) {
    scope.tellings = createTellings({
      connection: options.connection,
      queueKey: queueKeyOf(settings.prefix, fence.queueName),
      graceMs: fence.lockMs,
      everyMs: Math.min(30_000, fence.lockMs),
      outcomesOf: (teamId) => options.operations.reach(teamId),
      logger,
      now,
    });
  }
  return scope;
}

/** Jobs a person asked for carry where they are (their origin); scheduled jobs only a team. */
export function originOf(job: Job): Origin | undefined {
  return (job.data as { origin?: Origin } | undefined)?.origin;
}

/** How a job's failure is told, and remembered for the person's App Home. */
export function tellingScope(
  scope: EngineScope,
  job: Job,
  origin: Origin,
  outcomes: Outcomes | undefined,
  write: WriteLog,
): TellingScope {
  return {
    outcomes,
    write,
    remember: (outcome, reason) => scope.operations.ended(origin, job, outcome, reason),
    logger: lazyChild(scope.logger, { jobId: job.id, operation: job.name }),
  };
}
