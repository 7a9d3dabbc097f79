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
 */
import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import { isCollabError } from '../collab/errors.ts';
import type { Logger } from '../logger.ts';
import type { Store } from '../store/index.ts';
import type { Redis } from '../store/redis.ts';
import type { Workspaces } from '../store/workspaces.ts';
import type { ProcessorContext, Processors } from './context.ts';
import { describeOperation, humanError, isUserError } from './errors.ts';
import { createOutcomes } from './outcome.ts';
import { QUEUE_NAME } from './queue.ts';
import { isOperation, JOB_SCHEMAS, type Origin } from './schemas.ts';
import { readLog, stepRunner, writeLog } from './steps.ts';

export interface WorkerSettings {
  prefix: string;
  concurrency: number;
  /** first backoff delay when a 429 came without Retry-After */
  backoffMs: number;
  /** how many 429s one operation waits out before it is reported failed */
  maxRateLimitWaits?: number;
}

export interface WorkerDeps {
  connection: Redis;
  workspaces: Workspaces;
  store: Store;
  processors: Processors;
  logger: Logger;
  settings: WorkerSettings;
  now?: () => number;
}

/** Exponential backoff with full jitter, capped at five minutes. */
export function backoffDelay(base: number, n: number, random: () => number = Math.random): number {
  const ceiling = Math.min(5 * 60_000, base * 2 ** Math.min(n, 20));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export function createWorker(deps: WorkerDeps): Worker {
  const { logger, settings } = deps;
  const now = deps.now ?? Date.now;
  const maxRateLimitWaits = settings.maxRateLimitWaits ?? 20;

  const worker = new Worker(
    QUEUE_NAME,
    async (job: Job, token?: string, signal?: AbortSignal) => {
      const operation = job.name;
      if (!isOperation(operation)) throw new UnrecoverableError(`unknown operation ${operation}`);
      const parsed = JOB_SCHEMAS[operation].safeParse(job.data);
      if (!parsed.success) {
        logger.error({ jobId: job.id, operation, issues: parsed.error.issues.length }, 'malformed job data');
        throw new UnrecoverableError('malformed job data');
      }
      const data = parsed.data;
      const origin: Origin = data.origin;
      const workspace = await deps.workspaces.get(origin.teamId);
      const outcomes = workspace ? createOutcomes(workspace.slack, logger, now) : undefined;
      if (!workspace || !outcomes) {
        logger.warn({ jobId: job.id, teamId: origin.teamId }, 'no workspace for job');
        throw new UnrecoverableError('workspace not installed');
      }
      const ctx: ProcessorContext = {
        job,
        teamId: origin.teamId,
        collab: workspace.collab,
        slack: workspace.slack,
        store: deps.store,
        outcomes,
        once: stepRunner(job),
        logger: logger.child({ jobId: job.id, operation }),
        isRerun: job.attemptsStarted > 1 || job.stalledCounter > 0,
        signal,
      };
      try {
        // The processor registry is keyed by operation; the cast ties the two together.
        await (deps.processors[operation] as (d: typeof data, c: ProcessorContext) => Promise<void>)(
          data,
          ctx,
        );
      } catch (error) {
        await onFailure(job, token, error, origin, ctx);
      }
    },
    {
      connection: deps.connection,
      prefix: settings.prefix,
      concurrency: settings.concurrency,
      // Retry delays belong to BullMQ's backoff (set on the queue); the lock covers slow API calls.
      lockDuration: 60_000,
      maxStalledCount: 2,
    },
  );

  async function onFailure(
    job: Job,
    token: string | undefined,
    error: unknown,
    origin: Origin,
    ctx: ProcessorContext,
  ) {
    const operation = job.name;
    const attempts = job.opts.attempts ?? 1;
    const log = readLog(job);

    if (isCollabError(error) && error.kind === 'rateLimited') {
      const waited = log.rateLimited ?? 0;
      if (waited < maxRateLimitWaits && token) {
        const delay = error.retryAfterMs ?? backoffDelay(settings.backoffMs, waited);
        const at = now() + delay;
        log.rateLimited = waited + 1;
        const tellNow = !log.notifiedRetry;
        log.notifiedRetry = true;
        await writeLog(job, log);
        if (tellNow) await tellRetry(ctx, origin, operation, at);
        ctx.logger.info({ delay }, 'rate limited; delayed');
        await job.moveToDelayed(at, token);
        throw new DelayedError();
      }
    }

    // Anything else (a Redis hiccup, a bug) is retried like a retryable error: effects are in the step log.
    const final =
      isUserError(error) ||
      (isCollabError(error) && error.kind === 'permanent') ||
      job.attemptsMade + 1 >= attempts;

    if (final) {
      ctx.logger.warn({ err: isCollabError(error) ? error.toJSON() : error }, 'operation failed');
      await ctx.outcomes.deliver(
        origin,
        { text: `:warning: ${humanError(operation, error)}` },
        { replaceOriginal: replacesAck(origin) },
      );
      throw new UnrecoverableError(error instanceof Error ? error.message : String(error));
    }

    if (!log.notifiedRetry) {
      log.notifiedRetry = true;
      await writeLog(job, log);
      const at = now() + backoffDelay(settings.backoffMs, job.attemptsMade, () => 1);
      await tellRetry(ctx, origin, operation, at);
    }
    throw error;
  }

  worker.on('failed', (job, error) => {
    // A job that stalled too often never reached onFailure: tell the person here.
    if (job && /stalled/i.test(error.message) && isOperation(job.name)) {
      const origin = (job.data as { origin?: Origin }).origin;
      if (!origin) return;
      void deps.workspaces.get(origin.teamId).then((ws) => {
        if (!ws) return;
        void createOutcomes(ws.slack, logger, now).deliver(origin, {
          text: `:warning: Could not ${describeOperation(job.name)}: the worker stopped while running it. Try again.`,
        });
      });
    }
  });
  worker.on('error', (error) => logger.error({ err: error }, 'worker error'));
  return worker;
}

async function tellRetry(ctx: ProcessorContext, origin: Origin, operation: string, at: number) {
  const seconds = Math.floor(at / 1000);
  const fallback = new Date(at).toISOString().slice(11, 16);
  await ctx.outcomes.deliver(
    origin,
    {
      text: `:hourglass_flowing_sand: The service is busy; I will ${describeOperation(operation)} again at <!date^${seconds}^{time_secs}|${fallback} UTC>. No need to do anything.`,
    },
    { replaceOriginal: replacesAck(origin) },
  );
}

/** A slash command was acked with a "working on it" note that the outcome replaces; other sources keep their message. */
export function replacesAck(origin: Origin): boolean {
  return origin.source === 'command';
}
