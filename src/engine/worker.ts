/**
 * The reliable worker: BullMQ's Worker wired to one run of a job (run.ts), to stalled-out jobs
 * (settled by the worker that fails them, and swept up should it die first), and to the
 * tellings it makes after completion. Closing it waits for those tellings.
 */
import { Job, Worker } from 'bullmq';
import { FAILED_CLAIM_TTL } from '../operations/queue.ts';
import type { Redis } from '../store/redis.ts';
import { queueLayout, STALLED_OUT } from './bullmq.ts';
import { runJob } from './run.ts';
import { type EngineScope, engineScope, originOf, type ReliableWorkerOptions } from './scope.ts';
import { MAX_STALLED_COUNT, settleStalledOut } from './stalledOut.ts';
import { startStalledSweep } from './stalledSweep.ts';
import type { Tellings } from './tellAfterCompletion.ts';

/**
 * How far back a worker that starts looks for stalled-out jobs nobody settled (stalledSweep.ts):
 * a deployment down for longer leaves older ones as they are.
 */
const STALLED_SWEEP_WINDOW_MS = 24 * 3600_000;

/** BullMQ's worker; closing it also waits for the outcomes it tells after completion. */
class ReliableWorker extends Worker {
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
  return worker instanceof ReliableWorker && worker.tellings
    ? worker.tellings.told(jobId)
    : Promise.resolve();
}

export function createReliableWorker(options: ReliableWorkerOptions): Worker {
  const scope = engineScope(options);
  const { settings, fence } = scope;
  const worker = new ReliableWorker(
    fence.queueName,
    // Two parameters: BullMQ makes an AbortController for every job of a processor that takes a
    // third (its signal), and nothing here cancels a running job.
    (job: Job, token?: string) => runJob(scope, job, token),
    {
      connection: options.connection,
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
    // A job that stalled too often never reached the failure policy: the person is told here.
    // Should that fail, the sweep below finds it untold and settles it.
    if (error.message === STALLED_OUT)
      settleStalledOut(scope, job).catch((failure: unknown) =>
        scope.logger.warn({ err: failure, jobId: job.id }, 'could not settle a stalled-out job'),
      );
    holdFailedClaim(scope, options.connection, worker, job);
  });
  sweepStalledOut(scope, options.connection, worker);
  // Each finished operation of a person is remembered (failures where they are told).
  worker.on('completed', (job) => {
    scope.tellings?.completed(job);
    const origin = originOf(job);
    if (origin && scope.operations.runs(job.name)) void scope.operations.ended(origin, job, 'completed');
  });
  worker.on('error', (error) => scope.logger.error({ err: error }, 'worker error'));
  return worker;
}

/** Should the worker that failed a stalled-out job die before settling it, another worker's sweep does. */
function sweepStalledOut(scope: EngineScope, connection: Redis, worker: Worker): void {
  const sweep = startStalledSweep({
    connection,
    queueKey: worker.qualifiedName,
    load: async (id) => (await Job.fromId(worker, id)) ?? undefined,
    settle: (job) => settleStalledOut(scope, job),
    everyMs: Math.min(30_000, scope.fence.lockMs),
    graceMs: scope.fence.lockMs,
    windowMs: STALLED_SWEEP_WINDOW_MS,
    logger: scope.logger,
    now: scope.now,
  });
  worker.on('closing', () => void sweep.stop());
}

/**
 * A failed job's record is kept a week (operations/queue.ts): its idempotency key is held a day
 * longer, so a duplicate is never taken for a new operation while the record that would say
 * otherwise is still there. Only keys with a lifetime are claims (a poller's key lives while its
 * job does, and is left alone); a failed attempt that will be retried is held as long, harmlessly.
 */
function holdFailedClaim(scope: EngineScope, redis: Redis, worker: Worker, job: Job): void {
  const id = job.deduplicationId;
  if (!id || job.opts.deduplication?.ttl === undefined) return;
  redis
    .pexpire(queueLayout(worker.qualifiedName).deduplication(id), FAILED_CLAIM_TTL)
    .catch((error: unknown) =>
      scope.logger.warn({ err: error, jobId: job.id }, 'could not hold the key of a failed job'),
    );
}
