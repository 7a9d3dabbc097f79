/**
 * The web stage: the Bolt app (Slack's endpoint, with /healthz, /readyz, /metrics and the jobs
 * dashboard beside it) on the web and all roles; on the worker role, only the ops endpoints on
 * a tiny server of their own. It starts last and stops first: requests stop coming before
 * anything behind them stops.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '@slack/bolt';
import { dashboardRoutes } from '../ops/dashboard.ts';
import { opsRoutes, startOpsServer } from '../ops/health.ts';
import { limitConnections, serverOptions } from '../ops/serverLimits.ts';
import { buildSlackApp } from '../slack/app.ts';
import { oauthStateStore } from '../store/oauthState.ts';
import type { Built } from './core.ts';
import type { Stop } from './stages.ts';

export interface WebStage {
  /** the Bolt app; undefined on the worker role */
  app: App | undefined;
  /** the HTTP server listening on PORT; undefined in Socket Mode */
  server: Server | undefined;
  /** the port it listens on */
  port: number | undefined;
  stop: Stop;
}

export function startWeb(built: Built): Promise<WebStage> {
  return built.config.role === 'worker' ? startOpsOnly(built) : startSlack(built);
}

/** The worker-only role answers /healthz, /readyz and /metrics on PORT. */
async function startOpsOnly({ config, core }: Built): Promise<WebStage> {
  const server = await startOpsServer(core.ops, config.port);
  limitConnections(server, config.http);
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { app: undefined, server, port: portOf(server), stop };
}

async function startSlack({ config, logger, connections, core }: Built): Promise<WebStage> {
  const app = buildSlackApp({
    slack: config.slack,
    queue: core.queue,
    store: core.store,
    workspaces: core.workspaces,
    logger,
    port: config.port,
    optionsTimeoutMs: config.collab.optionsTimeoutMs,
    ...(config.install
      ? {
          install: {
            config: config.install,
            installationStore: core.store.installations!,
            stateStore: oauthStateStore(connections.store, core.space, config.install.stateSecret),
          },
        }
      : {}),
    customRoutes: [
      ...opsRoutes(core.ops),
      ...(config.jobsDashboard ? await dashboardRoutes(core.queue.queues, config.jobsDashboard) : []),
    ],
    onAck: core.metrics.ack,
    settings: {
      mode: config.install ? 'multi' : 'single',
      adminUserIds: config.adminUserIds,
      allowInsecureCollabUrl: config.allowInsecureCollabUrl,
      collab: core.collab,
    },
  });
  core.tracing?.traceSlackRequests(app);
  // HTTP mode answers with its node:http server; Socket Mode with none.
  const started = (await app.start(config.port, serverOptions(config.http))) as unknown;
  const server = isServer(started) ? started : undefined;
  if (server) limitConnections(server, config.http);
  const stop = async () => {
    await app.stop().catch(() => {});
  };
  return { app, server, port: server ? portOf(server) : undefined, stop };
}

function isServer(value: unknown): value is Server {
  return typeof (value as Server | undefined)?.address === 'function';
}

function portOf(server: Server): number | undefined {
  return (server.address() as AddressInfo | null)?.port;
}
