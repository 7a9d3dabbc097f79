/**
 * The composition root: starts the bot in stages — connect (Redis), the core (store, queue,
 * workspaces, …), the workers (worker and all roles), the web (Bolt, or the worker role's ops
 * endpoints) — and stops them in the reverse order: requests stop first, then the active jobs
 * finish, then the core closes and Redis is let go. `main.ts`, the sandbox and the tests start
 * the bot through here, so they all run the same wiring.
 */
import type { App } from '@slack/bolt';
import type { Worker } from 'bullmq';
import type { Config } from './config.ts';
import type { Schedules } from './jobs/schedules.ts';
import type { Logger } from './logger.ts';
import type { OperationsQueue } from './operations/queue.ts';
import type { Metrics } from './ops/metrics.ts';
import { connect } from './runtime/connect.ts';
import { buildCore, type CoreOptions } from './runtime/core.ts';
import { Starter } from './runtime/stages.ts';
import { startWeb } from './runtime/web.ts';
import { startWorkers } from './runtime/workers.ts';
import type { Store } from './store/index.ts';
import type { Workspaces } from './workspaces/workspaces.ts';

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

export type StartOptions = CoreOptions;

export async function startBot(
  config: Config,
  logger: Logger,
  options: StartOptions = {},
): Promise<RunningBot> {
  const stages = new Starter();
  const connections = await stages.start(() => connect(config, logger));
  const core = await stages.start(() => buildCore(config, connections, options));
  const built = { config, logger, connections, core };
  const { workers } = await stages.start(() => startWorkers(built));
  const web = await stages.start(() => startWeb(built));
  return {
    port: web.port,
    app: web.app,
    worker: workers[0],
    workers,
    queue: core.queue,
    schedules: core.schedules,
    store: core.store,
    workspaces: core.workspaces,
    metrics: core.metrics,
    stop: () => stages.stop(),
  };
}
