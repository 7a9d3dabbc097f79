/**
 * Operations endpoints: `/healthz` (the process answers), `/readyz` (Redis answers: the instance
 * can take work; a backed-up queue is reported, not refused) and `/metrics` (Prometheus text). The web role serves them as Bolt custom routes;
 * the worker-only role through {@link startOpsServer}, a tiny node:http server on PORT.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { CustomRoute } from '@slack/bolt';
import type { Queue } from 'bullmq';
import type { RedisDurability } from '../store/durability.ts';
import { masters, type Redis } from '../store/redis.ts';
import type { Metrics } from './metrics.ts';

export interface OpsDeps {
  redis: Redis;
  /** every shard of the operations queue */
  queues: readonly Queue[];
  metrics: Metrics;
  /** more jobs than this waiting is reported as `backlogged` (READY_MAX_WAITING) */
  maxWaiting: number;
  /** Redis's persistence and eviction settings as read at start */
  durability?: RedisDurability;
}

export interface Readiness {
  ready: boolean;
  redis: 'ok' | 'down';
  waiting?: number;
  maxWaiting: number;
  /**
   * More than `maxWaiting` jobs wait. Reported, not a reason to be unready: every instance shares
   * the one queue, so a backlog would take all of them out of rotation at once and Slack's
   * requests would be refused instead of queued. The alert CollabSlackQueueBackingUp watches it.
   */
  backlogged?: boolean;
  /** Redis's persistence and eviction settings as read at start, and what they risk */
  redisSettings?: RedisDurability;
}

const CHECK_TIMEOUT_MS = 2000;

async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function readiness(deps: OpsDeps): Promise<Readiness> {
  const settings = deps.durability ? { redisSettings: deps.durability } : {};
  try {
    // Every master of a cluster: a shard whose master is away is work nobody can take.
    await within(Promise.all(masters(deps.redis).map((node) => node.ping())), CHECK_TIMEOUT_MS);
    // Waiting in line or, past a workspace's fair share (operations/fairness.ts), behind it.
    const counts = await within(
      Promise.all(deps.queues.map((queue) => queue.getJobCountByTypes('waiting', 'prioritized'))),
      CHECK_TIMEOUT_MS,
    );
    const waiting = counts.reduce((sum, n) => sum + n, 0);
    return {
      ready: true,
      redis: 'ok',
      waiting,
      maxWaiting: deps.maxWaiting,
      backlogged: waiting >= deps.maxWaiting,
      ...settings,
    };
  } catch {
    return { ready: false, redis: 'down', maxWaiting: deps.maxWaiting, ...settings };
  }
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

export function opsHandlers(deps: OpsDeps): Record<'/healthz' | '/readyz' | '/metrics', Handler> {
  return {
    '/healthz': (_req, res) => send(res, 200, 'application/json', '{"status":"ok"}'),
    '/readyz': (_req, res) => {
      void readiness(deps).then((r) => send(res, r.ready ? 200 : 503, 'application/json', JSON.stringify(r)));
    },
    '/metrics': (_req, res) => {
      deps.metrics.render().then(
        (text) => send(res, 200, deps.metrics.contentType, text),
        () => send(res, 500, 'text/plain', 'metrics unavailable'),
      );
    },
  };
}

/** The endpoints as Bolt custom routes (GET). */
export function opsRoutes(deps: OpsDeps): CustomRoute[] {
  return Object.entries(opsHandlers(deps)).map(([path, handler]) => ({ path, method: ['GET'], handler }));
}

/** The endpoints alone, for the worker-only role. Resolves once listening. */
export async function startOpsServer(deps: OpsDeps, port: number): Promise<Server> {
  const handlers = opsHandlers(deps);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const handler = req.method === 'GET' ? handlers[path as keyof typeof handlers] : undefined;
    if (handler) handler(req, res);
    else send(res, 404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
