/**
 * The composition root: connects Redis, builds the store, the queue, the workspaces, and starts
 * the web role (Bolt), the worker role, or both. `main.ts`, the sandbox and the tests start the
 * bot through here, so they all run the same wiring.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '@slack/bolt';
import type { Worker } from 'bullmq';
import { outboundGuard, type Resolve } from './collab/outbound.ts';
import type { Config } from './config.ts';
import { type PollDispatcher, startPollDispatch } from './jobs/pollDispatch.ts';
import { processors } from './jobs/processors/index.ts';
import { createSchedules, type Schedules } from './jobs/schedules.ts';
import { createWorker } from './jobs/worker.ts';
import type { Logger } from './logger.ts';
import { createOperationsQueue, type OperationsQueue } from './operations/queue.ts';
import { dashboardRoutes } from './ops/dashboard.ts';
import { opsRoutes, startOpsServer } from './ops/health.ts';
import { createMetrics, type Metrics } from './ops/metrics.ts';
import { limitConnections, serverOptions } from './ops/serverLimits.ts';
import { startTracing, type Tracing } from './ops/tracing.ts';
import { buildSlackApp } from './slack/app.ts';
import { createBudget } from './store/budget.ts';
import { createCipher } from './store/crypto.ts';
import { checkDurability } from './store/durability.ts';
import { createStore, type Store } from './store/index.ts';
import { oauthStateStore } from './store/oauthState.ts';
import { createPollSchedule } from './store/pollSchedule.ts';
import { connectRedis, type Redis, whenReady } from './store/redis.ts';
import { slackTokenRefresher, tokenRotation } from './store/tokenRotation.ts';
import { multiWorkspace } from './workspaces/multiWorkspace.ts';
import { singleWorkspace, type Workspaces } from './workspaces/workspaces.ts';

export interface RunningBot {
  /** HTTP mode web role: the port it listens on */
  port: number | undefined;
  app: App | undefined;
  /** shard 0's worker (the only one with one shard); undefined on the web role */
  worker: Worker | undefined;
  /** one worker per queue shard, shard 0 first; empty on the web role */
  workers: Worker[];
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
  /** replaces the tracing the configuration asks for (tests: an in-memory exporter); stopped by its owner */
  tracing?: Tracing;
  /** the resolver of the outbound guard (tests give a stub); default the system's */
  resolve?: Resolve;
}

export async function startBot(
  config: Config,
  logger: Logger,
  options: StartOptions = {},
): Promise<RunningBot> {
  // Connections and what knows which Lua scripts: BullMQ defines ~50 on the connections it is
  // given, and ioredis copies every script a connection knows onto each pipeline it makes. So
  // BullMQ's queue and worker each have theirs, and the store (with the budget and the poll
  // schedule) and the step log have their own, which know only the bot's few. No connection is
  // auto-pipelined: measured beside BullMQ's floor (bench:worker), the worker spends less CPU
  // per operation without it (each batch copied those scripts and waited for the next tick), and
  // acks are no slower; the cluster failover test passes without it (test/cluster/failover.test.ts,
  // with WORKER_MAX_REDIRECTIONS).
  const producer: Redis = connectRedis(config.redis, 'producer');
  const storeRedis: Redis = connectRedis(config.redis, 'producer');
  const workerConnection: Redis | undefined =
    config.role === 'web' ? undefined : connectRedis(config.redis, 'worker');
  const stepsConnection: Redis | undefined =
    config.role === 'web' ? undefined : connectRedis(config.redis, 'worker');
  const disconnect = () => {
    for (const redis of [producer, storeRedis, workerConnection, stepsConnection]) redis?.disconnect();
  };
  // Enqueues fail fast while Redis is away, so start only once it answers.
  await whenReady(producer, 10_000).catch((error: unknown) => {
    disconnect();
    throw new Error(`Redis does not answer at ${redactUrl(config.redisUrl)}: ${(error as Error).message}`);
  });
  // A Redis that would lose or evict queued work: refused in production, a warning elsewhere.
  // On a cluster, every master is read (store/durability.ts).
  const durability = await checkDurability(producer, { ...config.redisDurability, logger }).catch(
    (error: unknown) => {
      disconnect();
      throw error;
    },
  );
  // On a cluster every key of one workspace shares its hash tag (store/keys.ts).
  const cluster = config.redis.cluster !== undefined;
  const space = { prefix: config.prefix, hashTags: cluster };
  const cipher = config.encryption ? createCipher(config.encryption) : undefined;
  // Rotating bot tokens (token_rotation_enabled) are refreshed through the installation store.
  const rotation = config.install
    ? tokenRotation(
        storeRedis,
        slackTokenRefresher({
          clientId: config.install.clientId,
          clientSecret: config.install.clientSecret,
          slackApiUrl: config.slack.apiUrl,
        }),
      )
    : undefined;
  const store = createStore(storeRedis, space, { ...(cipher ? { cipher } : {}), rotation });
  // Off (and OpenTelemetry not loaded) unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const ownTracing = options.tracing
    ? undefined
    : config.tracing
      ? await startTracing(config.tracing)
      : undefined;
  const tracing = options.tracing ?? ownTracing;
  const telemetry = tracing?.telemetry;
  const queue = createOperationsQueue(producer, {
    ...space,
    ...config.worker,
    telemetry,
    shards: config.queueShards,
    cluster,
    wait: config.redisWait,
  });
  const metrics = createMetrics();
  for (const shard of queue.queues) metrics.watchQueue(shard);
  metrics.watchRedis(producer);
  // One request budget per service host, shared with every other process through Redis.
  const budget = createBudget(storeRedis, space, config.collab.rate);
  metrics.watchBudget(budget, config.polling);
  const multi = config.install !== undefined;
  // Service URLs entered by workspace admins must be public (or allowed by the operator); the
  // operator's own COLLAB_API_URL (single-workspace mode) is trusted as configured.
  const guard = multi
    ? outboundGuard({
        allowed: config.collab.allowedHosts,
        ...(options.resolve ? { resolve: options.resolve } : {}),
      })
    : undefined;
  const collabSettings = {
    ...config.collab,
    onResponse: metrics.apiResponse,
    budget,
    ...(guard ? { guard } : {}),
  };
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
  const ops = {
    redis: producer,
    queues: queue.queues,
    metrics,
    maxWaiting: config.readyMaxWaiting,
    durability,
  };
  // Polls are paced by the budget of their workspace's service host (store/pollSchedule.ts).
  const pollSchedule = createPollSchedule(storeRedis, space, {
    capacity: Math.max(1, config.collab.rate.limit - config.collab.rate.personReserve),
    windowMs: config.collab.rate.windowMs,
  });
  let dispatcher: PollDispatcher | undefined;
  const schedules = createSchedules(queue, {
    schedule: pollSchedule,
    hostOf: async (teamId) => (await workspaces.get(teamId).catch(() => undefined))?.collabHost ?? 'default',
    onChange: () => dispatcher?.wake(),
  });

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
      ...(multi
        ? {
            install: {
              config: config.install!,
              installationStore: store.installations!,
              stateStore: oauthStateStore(storeRedis, space, config.install!.stateSecret),
            },
          }
        : {}),
      customRoutes: [
        ...opsRoutes(ops),
        ...(config.jobsDashboard ? await dashboardRoutes(queue.queues, config.jobsDashboard) : []),
      ],
      onAck: metrics.ack,
      settings: {
        mode: multi ? 'multi' : 'single',
        adminUserIds: config.adminUserIds,
        allowInsecureCollabUrl: config.allowInsecureCollabUrl,
        collab: collabSettings,
      },
    });
    tracing?.traceSlackRequests(app);
    const started = (await app.start(config.port, serverOptions(config.http))) as unknown;
    if (started && typeof (started as Server).address === 'function') {
      limitConnections(started as Server, config.http);
      port = ((started as Server).address() as AddressInfo | null)?.port;
    }
  }

  // The worker-only role answers /healthz, /readyz and /metrics on PORT.
  let opsServer: Server | undefined;
  if (config.role === 'worker') {
    opsServer = await startOpsServer(ops, config.port);
    limitConnections(opsServer, config.http);
    port = (opsServer.address() as AddressInfo | null)?.port;
  }

  // One worker per shard, sharing the process's connection; the configured concurrency is split
  // evenly (rounded up), so a process runs about WORKER_CONCURRENCY jobs at once over all shards.
  const workers: Worker[] = [];
  const perShard = Math.max(1, Math.ceil(config.worker.concurrency / queue.queues.length));
  for (const shard of workerConnection ? queue.queues : []) {
    const worker = createWorker({
      connection: workerConnection!,
      ...(stepsConnection ? { stepsConnection } : {}),
      storeSharesQueue: !cluster,
      workspaces,
      store,
      processors,
      schedules,
      polling: config.polling,
      budget,
      logger,
      settings: {
        prefix: config.prefix,
        queueName: shard.name,
        concurrency: perShard,
        wait: config.redisWait,
        backoffMs: config.worker.backoffMs,
        lockMs: config.worker.lockMs,
        telemetry,
        // connect, answer headers, answer body, and undici's timers are ~1 s accurate
        sendWindowMs: config.collab.connectTimeoutMs + 2 * config.collab.timeoutMs + 2000,
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
    workers.push(worker);
  }
  // One dispatcher per worker process, whatever the shards: it enqueues each poll on its shard.
  if (workers.length > 0)
    dispatcher = startPollDispatch({ schedule: pollSchedule, queues: queue, schedules, logger });

  return {
    port,
    app,
    worker: workers[0],
    workers,
    queue,
    schedules,
    store,
    workspaces,
    metrics,
    async stop() {
      // Stop taking requests first, then let active jobs finish (worker.close waits for them), then close Redis.
      await app?.stop().catch(() => {});
      await new Promise<void>((resolve) => (opsServer ? opsServer.close(() => resolve()) : resolve()));
      await dispatcher?.stop();
      await Promise.all(workers.map((worker) => worker.close().catch(() => {})));
      // At once: a closed BullMQ worker whose loop was waiting for a job may still move one to
      // active while its connection is open, and leave it until its lock runs out.
      workerConnection?.disconnect();
      // The outcomes the workers recorded last may still wait for their batch: written before
      // Redis is closed (a failed write was logged by the worker that recorded it).
      await store.recent.flush().catch(() => {});
      await queue.close().catch(() => {});
      await workspaces.close().catch(() => {});
      disconnect();
      await ownTracing?.shutdown();
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
