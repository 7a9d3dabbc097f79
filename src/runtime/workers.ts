/**
 * The worker stage: one reliable worker per queue shard — the engine (createReliableWorker)
 * running the product's operations (jobs/product.ts) — and the poll dispatcher. Absent on the web
 * role (it has no worker connection).
 */
import type { Worker } from 'bullmq';
import { createReliableWorker } from '../engine/index.ts';
import { type PollDispatcher, startPollDispatch } from '../jobs/pollDispatch.ts';
import { processors } from '../jobs/processors/index.ts';
import { productOperations } from '../jobs/product.ts';
import type { Metrics } from '../ops/metrics.ts';
import type { Built } from './core.ts';
import type { Stop } from './stages.ts';

export interface WorkerStage {
  /** one worker per queue shard, shard 0 first; empty on the web role */
  workers: Worker[];
  dispatcher: PollDispatcher | undefined;
  stop: Stop;
}

export async function startWorkers(built: Built): Promise<WorkerStage> {
  const { config, logger, core } = built;
  const connection = built.connections.worker;
  if (!connection) return { workers: [], dispatcher: undefined, stop: async () => {} };
  // One worker per shard, sharing the process's connection; the configured concurrency is split
  // evenly (rounded up), so a process runs about WORKER_CONCURRENCY jobs at once over all shards.
  const perShard = Math.max(1, Math.ceil(config.worker.concurrency / core.queue.queues.length));
  const workers = core.queue.queues.map((shard) => {
    const worker = workerOf(built, { queueName: shard.name, perShard });
    countJobs(worker, core.metrics);
    return worker;
  });
  // One dispatcher per worker process, whatever the shards: it enqueues each poll on its shard.
  const dispatcher = startPollDispatch({
    schedule: core.pollSchedule,
    queues: core.queue,
    schedules: core.schedules,
    logger,
  });
  core.onPollsChanged(() => dispatcher.wake());
  const stop = async () => {
    await dispatcher.stop();
    // worker.close lets the active jobs finish.
    await Promise.all(workers.map((worker) => worker.close().catch(() => {})));
    // At once: a closed BullMQ worker whose loop was waiting for a job may still move one to
    // active while its connection is open, and leave it until its lock runs out.
    connection.disconnect();
  };
  return { workers, dispatcher, stop };
}

function workerOf(
  { config, logger, connections, core }: Built,
  shard: { queueName: string; perShard: number },
): Worker {
  return createReliableWorker({
    connection: connections.worker!,
    stepsConnection: connections.steps,
    storeSharesQueue: !core.space.hashTags,
    logger,
    settings: {
      prefix: config.prefix,
      queueName: shard.queueName,
      concurrency: shard.perShard,
      wait: config.redisWait,
      backoffMs: config.worker.backoffMs,
      lockMs: config.worker.lockMs,
      telemetry: core.tracing?.telemetry,
      // connect, answer headers, answer body, and undici's timers are ~1 s accurate
      sendWindowMs: config.collab.connectTimeoutMs + 2 * config.collab.timeoutMs + 2000,
    },
    operations: productOperations({
      workspaces: core.workspaces,
      store: core.store,
      processors,
      schedules: core.schedules,
      polling: config.polling,
      budget: core.budget,
      logger,
      features: {
        digestQuietNote: config.digestQuietNote,
        postUrlPattern: config.postUrlPattern,
        command: config.slack.slashCommand,
      },
    }),
  });
}

/** Jobs completed, retried and failed for good, by operation (ops/metrics.ts). */
function countJobs(worker: Worker, metrics: Metrics): void {
  worker.on('completed', (job) => metrics.job(job.name, 'completed'));
  worker.on('failed', (job, error) => {
    if (!job || error.name === 'DelayedError') return;
    const final = error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
    metrics.job(job.name, final ? 'failed' : 'retried');
  });
}
