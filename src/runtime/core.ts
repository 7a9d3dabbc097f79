/**
 * The second stage: what both roles share, built on the connections — the store, tracing, the
 * operations queue, metrics, the request budget, the outbound guard, the workspaces and the
 * poll schedule. It starts nothing that takes work; the web and worker stages do.
 */
import { outboundGuard, type Resolve } from '../collab/outbound.ts';
import type { Config } from '../config.ts';
import { createSchedules, type Schedules } from '../jobs/schedules.ts';
import type { Logger } from '../logger.ts';
import { DEFAULT_FAIRNESS } from '../operations/fairness.ts';
import { createOperationsQueue, type OperationsQueue } from '../operations/queue.ts';
import type { OpsDeps } from '../ops/health.ts';
import { createMetrics, type Metrics } from '../ops/metrics.ts';
import { startTracing, type Tracing } from '../ops/tracing.ts';
import { createBudget, type HostBudget } from '../store/budget.ts';
import { createCipher } from '../store/crypto.ts';
import { createStore, type Store } from '../store/index.ts';
import type { KeySpace } from '../store/keys.ts';
import { createPollSchedule, type PollSchedule } from '../store/pollSchedule.ts';
import { slackTokenRefresher, tokenRotation } from '../store/tokenRotation.ts';
import { multiWorkspace } from '../workspaces/multiWorkspace.ts';
import { type CollabClientSettings, singleWorkspace, type Workspaces } from '../workspaces/workspaces.ts';
import type { Connections } from './connect.ts';
import type { Stop } from './stages.ts';

export interface CoreOptions {
  /** replaces the single-workspace credentials from the configuration */
  workspaces?: Workspaces;
  /** replaces the tracing the configuration asks for (tests: an in-memory exporter); stopped by its owner */
  tracing?: Tracing;
  /** the resolver of the outbound guard (tests give a stub); default the system's */
  resolve?: Resolve;
}

export interface Core {
  /** the key space: the prefix, and hash tags on a cluster (store/keys.ts) */
  space: KeySpace;
  store: Store;
  tracing: Tracing | undefined;
  queue: OperationsQueue;
  metrics: Metrics;
  budget: HostBudget;
  /** what every service client gets: timeouts, the budget, the outbound guard (multi-workspace) */
  collab: CollabClientSettings & Config['collab'];
  workspaces: Workspaces;
  /** what /healthz, /readyz and /metrics read */
  ops: OpsDeps;
  pollSchedule: PollSchedule;
  schedules: Schedules;
  /** whom to tell when a poller is added or changed (the worker stage's dispatcher) */
  onPollsChanged(listener: () => void): void;
  stop: Stop;
}

/** What the stages after the core start on. */
export interface Built {
  config: Config;
  logger: Logger;
  connections: Connections;
  core: Core;
}

export async function buildCore(
  config: Config,
  connections: Connections,
  options: CoreOptions = {},
): Promise<Core> {
  // On a cluster every key of one workspace shares its hash tag (store/keys.ts).
  const space: KeySpace = { prefix: config.prefix, hashTags: config.redis.cluster !== undefined };
  const store = storeOf(config, connections, space);
  // Off (and OpenTelemetry not loaded) unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const ownTracing = options.tracing || !config.tracing ? undefined : await startTracing(config.tracing);
  const tracing = options.tracing ?? ownTracing;
  const queue = createOperationsQueue(connections.producer, {
    ...space,
    ...config.worker,
    telemetry: tracing?.telemetry,
    shards: config.queueShards,
    cluster: space.hashTags,
    fairness: { ...DEFAULT_FAIRNESS, allowance: config.queueFairShare },
    wait: config.redisWait,
  });
  const metrics = createMetrics();
  for (const shard of queue.queues) metrics.watchQueue(shard);
  metrics.watchRedis(connections.producer);
  // One request budget per service host, shared with every other process through Redis.
  const budget = createBudget(connections.store, space, config.collab.rate);
  metrics.watchBudget(budget, config.polling);
  const collab = collabSettingsOf(config, metrics, budget, options);
  const workspaces = options.workspaces ?? workspacesOf(config, store, collab, metrics, budget);
  const polls = pollsOf(config, connections, space, queue, workspaces);
  const ops = {
    redis: connections.producer,
    queues: queue.queues,
    metrics,
    maxWaiting: config.readyMaxWaiting,
    durability: connections.durability,
  };
  const stop = async () => {
    // The outcomes the workers recorded last may still wait for their batch: written before
    // Redis is closed (a failed write was logged by the worker that recorded it).
    await store.recent.flush().catch(() => {});
    await queue.close().catch(() => {});
    await workspaces.close().catch(() => {});
    await ownTracing?.shutdown();
  };
  return { space, store, tracing, queue, metrics, budget, collab, workspaces, ops, ...polls, stop };
}

/**
 * The store, its values at rest encrypted when a key is configured (required in multi-workspace
 * mode); rotating bot tokens (token_rotation_enabled) are refreshed through its installations.
 */
function storeOf(config: Config, connections: Connections, space: KeySpace): Store {
  const cipher = config.encryption ? createCipher(config.encryption) : undefined;
  const rotation = config.install
    ? tokenRotation(
        connections.store,
        slackTokenRefresher({
          clientId: config.install.clientId,
          clientSecret: config.install.clientSecret,
          slackApiUrl: config.slack.apiUrl,
        }),
      )
    : undefined;
  const store = createStore(connections.store, space, { ...(cipher ? { cipher } : {}), rotation });
  if (config.install && (!store.installations || !store.connections)) {
    throw new TypeError('multi-workspace mode needs ENCRYPTION_KEY');
  }
  return store;
}

/**
 * Service URLs entered by workspace admins must be public (or allowed by the operator); the
 * operator's own COLLAB_API_URL (single-workspace mode) is trusted as configured.
 */
function collabSettingsOf(
  config: Config,
  metrics: Metrics,
  budget: HostBudget,
  options: CoreOptions,
): Core['collab'] {
  const guard = config.install
    ? outboundGuard({
        allowed: config.collab.allowedHosts,
        ...(options.resolve ? { resolve: options.resolve } : {}),
      })
    : undefined;
  return { ...config.collab, onResponse: metrics.apiResponse, budget, ...(guard ? { guard } : {}) };
}

/** Multi-workspace mode: each installation's; single-workspace mode: the configured one. */
function workspacesOf(
  config: Config,
  store: Store,
  collab: Core['collab'],
  metrics: Metrics,
  budget: HostBudget,
): Workspaces {
  if (!config.install) return singleWorkspace(config, { onResponse: metrics.apiResponse, budget });
  return multiWorkspace({
    installations: store.installations!,
    connections: store.connections!,
    slackApiUrl: config.slack.apiUrl,
    collab,
  });
}

/** Polls are paced by the budget of their workspace's service host (store/pollSchedule.ts). */
function pollsOf(
  config: Config,
  connections: Connections,
  space: KeySpace,
  queue: OperationsQueue,
  workspaces: Workspaces,
): Pick<Core, 'pollSchedule' | 'schedules' | 'onPollsChanged'> {
  const pollSchedule = createPollSchedule(connections.store, space, {
    capacity: Math.max(1, config.collab.rate.limit - config.collab.rate.personReserve),
    windowMs: config.collab.rate.windowMs,
  });
  const listeners: Array<() => void> = [];
  const schedules = createSchedules(queue, {
    schedule: pollSchedule,
    hostOf: async (teamId) => (await workspaces.get(teamId).catch(() => undefined))?.collabHost ?? 'default',
    onChange: () => {
      for (const listener of listeners) listener();
    },
  });
  return { pollSchedule, schedules, onPollsChanged: (listener) => listeners.push(listener) };
}
