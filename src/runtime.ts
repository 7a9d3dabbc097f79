/**
 * The composition root: connects Redis, builds the store, the queue, the workspaces, and starts
 * the web role (Bolt), the worker role, or both. `main.ts`, the sandbox and the tests start the
 * bot through here, so they all run the same wiring.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '@slack/bolt';
import type { Worker } from 'bullmq';
import type { Config } from './config.ts';
import { processors } from './jobs/processors/index.ts';
import { createOperationsQueue, type OperationsQueue } from './jobs/queue.ts';
import { createSchedules, type Schedules } from './jobs/schedules.ts';
import { createWorker } from './jobs/worker.ts';
import type { Logger } from './logger.ts';
import { opsRoutes, startOpsServer } from './ops/health.ts';
import { createMetrics, type Metrics } from './ops/metrics.ts';
import { buildSlackApp } from './slack/app.ts';
import { createBudget } from './store/budget.ts';
import { createCipher } from './store/crypto.ts';
import { createStore, type Store } from './store/index.ts';
import { multiWorkspace } from './store/multiWorkspace.ts';
import { connectRedis, type Redis, whenReady } from './store/redis.ts';
import { singleWorkspace, type Workspaces } from './store/workspaces.ts';

export interface RunningBot {
  /** HTTP mode web role: the port it listens on */
  port: number | undefined;
  app: App | undefined;
  worker: Worker | undefined;
  queue: OperationsQueue;
  schedules: Schedules;
  store: Store;
  workspaces: Workspaces;
  metrics: Metrics;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** replaces the single-workspace credentials from the configuration */
  workspaces?: Workspaces;
}

export async function startBot(
  config: Config,
  logger: Logger,
  options: StartOptions = {},
): Promise<RunningBot> {
  const producer: Redis = connectRedis(config.redisUrl, 'producer');
  const workerConnection: Redis | undefined =
    config.role === 'web' ? undefined : connectRedis(config.redisUrl, 'worker');
  // Enqueues fail fast while Redis is away, so start only once it answers.
  await whenReady(producer, 10_000).catch((error: unknown) => {
    producer.disconnect();
    workerConnection?.disconnect();
    throw new Error(`Redis does not answer at ${redactUrl(config.redisUrl)}: ${(error as Error).message}`);
  });
  const space = { prefix: config.prefix };
  const cipher = config.encryption ? createCipher(config.encryption) : undefined;
  const store = createStore(producer, space, cipher ? { cipher } : {});
  const queue = createOperationsQueue(producer, { prefix: config.prefix, ...config.worker });
  const metrics = createMetrics();
  metrics.watchQueue(queue.queue);
  // One request budget per service host, shared with every other process through Redis.
  const budget = createBudget(producer, space, config.collab.rate);
  metrics.watchBudget(budget, config.polling);
  const collabSettings = { ...config.collab, onResponse: metrics.apiResponse, budget };
  const multi = config.install !== undefined;
  if (multi && (!store.installations || !store.connections)) {
    throw new TypeError('multi-workspace mode needs ENCRYPTION_KEY');
  }
  const workspaces =
    options.workspaces ??
    (multi
      ? multiWorkspace({
          installations: store.installations!,
          connections: store.connections!,
          slackApiUrl: config.slack.apiUrl,
          collab: collabSettings,
        })
      : singleWorkspace(config, { onResponse: metrics.apiResponse, budget }));
  const ops = { redis: producer, queue: queue.queue, metrics, maxWaiting: config.readyMaxWaiting };
  const schedules = createSchedules(queue.queue);

  let app: App | undefined;
  let port: number | undefined;
  if (config.role !== 'worker') {
    app = buildSlackApp({
      slack: config.slack,
      queue,
      store,
      workspaces,
      logger,
      port: config.port,
      optionsTimeoutMs: config.collab.optionsTimeoutMs,
      ...(multi ? { install: { config: config.install!, installationStore: store.installations! } } : {}),
      customRoutes: opsRoutes(ops),
      onAck: metrics.ack,
      settings: {
        mode: multi ? 'multi' : 'single',
        adminUserIds: config.adminUserIds,
        allowInsecureCollabUrl: config.allowInsecureCollabUrl,
        collab: collabSettings,
      },
    });
    const started = (await app.start(config.port)) as unknown;
    if (started && typeof (started as Server).address === 'function') {
      port = ((started as Server).address() as AddressInfo | null)?.port;
    }
  }

  // The worker-only role answers /healthz, /readyz and /metrics on PORT.
  let opsServer: Server | undefined;
  if (config.role === 'worker') {
    opsServer = await startOpsServer(ops, config.port);
    port = (opsServer.address() as AddressInfo | null)?.port;
  }

  let worker: Worker | undefined;
  if (workerConnection) {
    worker = createWorker({
      connection: workerConnection,
      workspaces,
      store,
      processors,
      schedules,
      polling: config.polling,
      budget,
      logger,
      settings: {
        prefix: config.prefix,
        concurrency: config.worker.concurrency,
        backoffMs: config.worker.backoffMs,
        lockMs: config.worker.lockMs,
      },
      features: {
        digestQuietNote: config.digestQuietNote,
        postUrlPattern: config.postUrlPattern,
        command: config.slack.slashCommand,
      },
    });
    worker.on('completed', (job) => metrics.job(job.name, 'completed'));
    worker.on('failed', (job, error) => {
      if (!job || error.name === 'DelayedError') return;
      const final = error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
      metrics.job(job.name, final ? 'failed' : 'retried');
    });
  }

  return {
    port,
    app,
    worker,
    queue,
    schedules,
    store,
    workspaces,
    metrics,
    async stop() {
      // Stop taking requests first, then let active jobs finish (worker.close waits for them), then close Redis.
      await app?.stop().catch(() => {});
      await new Promise<void>((resolve) => (opsServer ? opsServer.close(() => resolve()) : resolve()));
      await worker?.close().catch(() => {});
      await queue.close().catch(() => {});
      await workspaces.close().catch(() => {});
      producer.disconnect();
      workerConnection?.disconnect();
    },
  };
}

/** A Redis URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured REDIS_URL';
  }
}
