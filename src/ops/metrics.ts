/**
 * Prometheus metrics (prom-client), one registry per running bot: Slack acks by surface, jobs by
 * operation and outcome, collaboration API latency and errors by status, queue depth, and the
 * process defaults (memory, CPU, event loop lag), whether Redis answers, and how late the most
 * overdue schedule (feed poll, thread mirror, digest) is. Served as `/metrics`; the alert rules and
 * the Grafana dashboard in monitoring/ use these names.
 */
import type { Queue } from 'bullmq';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { CollabClientOptions } from '../collab/client.ts';
import type { Redis } from '../store/redis.ts';

type ResponseEvent = Parameters<NonNullable<CollabClientOptions['onResponse']>>[0];

/** What /metrics reads of the request budget (store/budget.ts). */
export interface BudgetView {
  hosts(): string[];
  status(host: string): Promise<{ used: number; limit: number; pausedMs: number; stretch: number }>;
}

/** The configured polling intervals, stretched by the budget's factor. */
export interface PollingIntervals {
  feedIntervalMs: number;
  threadActiveMs: number;
  threadIdleMs: number;
}

export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

export interface Metrics {
  registry: Registry;
  /** a Slack request was acked */
  ack(surface: string, seconds: number): void;
  /** a job settled */
  job(operation: string, outcome: 'completed' | 'failed' | 'retried'): void;
  /** the collab client's onResponse hook */
  apiResponse: NonNullable<CollabClientOptions['onResponse']>;
  /** reports this queue's depth on every scrape */
  watchQueue(queue: Queue): void;
  /** reports whether this Redis answers a PING, on every scrape */
  watchRedis(redis: Redis): void;
  /** reports the request budget of every service host this process sent to, on every scrape */
  watchBudget(budget: BudgetView, polling?: PollingIntervals): void;
  render(): Promise<string>;
  contentType: string;
}

/**
 * How often the event loop's delay is sampled (ms). prom-client's 10 ms woke every idle process a
 * hundred times a second (bench:idle: 100 wake-ups/s, 13 with this). A stall still shows in full
 * in the sample it delays, and ten samples a second give each scrape hundreds to rank.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

export function createMetrics(options: { defaults?: boolean; now?: () => number } = {}): Metrics {
  const now = options.now ?? Date.now;
  const registry = new Registry();
  if (options.defaults !== false) {
    collectDefaultMetrics({
      register: registry,
      prefix: 'collab_slack_',
      eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS,
    });
  }

  const acks = new Counter({
    name: 'collab_slack_acks_total',
    help: 'Slack requests acked, by surface (command, action, view, shortcut, options, event)',
    labelNames: ['surface'] as const,
    registers: [registry],
  });
  const ackSeconds = new Histogram({
    name: 'collab_slack_ack_seconds',
    help: 'Time from receiving a Slack request to acking it',
    labelNames: ['surface'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const jobs = new Counter({
    name: 'collab_slack_jobs_total',
    help: 'Jobs settled, by operation and outcome (completed, failed, retried)',
    labelNames: ['operation', 'outcome'] as const,
    registers: [registry],
  });
  const apiSeconds = new Histogram({
    name: 'collab_slack_api_request_duration_seconds',
    help: 'Collaboration API calls, by operation and HTTP status (none: no answer)',
    labelNames: ['operation', 'status'] as const,
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const apiErrors = new Counter({
    name: 'collab_slack_api_errors_total',
    help: 'Collaboration API calls that failed, by operation, HTTP status (none: no answer) and kind',
    labelNames: ['operation', 'status', 'kind'] as const,
    registers: [registry],
  });
  const queues: Queue[] = [];
  new Gauge({
    name: 'collab_slack_queue_jobs',
    help: 'Jobs in the operations queue, by state',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const queue of queues) {
        try {
          const counts = await queue.getJobCounts(...QUEUE_STATES);
          for (const state of QUEUE_STATES) this.inc({ state }, counts[state] ?? 0);
        } catch {
          // Redis away: /readyz says so; the scrape still answers.
        }
      }
    },
  });

  new Gauge({
    name: 'collab_slack_scheduler_overdue_seconds',
    help: 'How long past its next run the most overdue job scheduler is (0: none is late; workers take each tick when due)',
    registers: [registry],
    async collect() {
      this.reset();
      let next: number | undefined;
      for (const queue of queues) {
        try {
          // Schedulers are kept ordered by their next run: the first is the most overdue.
          const [first] = await queue.getJobSchedulers(0, 0, true);
          if (first?.next !== undefined) next = Math.min(next ?? first.next, first.next);
        } catch {
          // Redis away: collab_slack_redis_up says so.
        }
      }
      this.set(next === undefined ? 0 : Math.max(0, (now() - next) / 1000));
    },
  });
  const redises: Redis[] = [];
  new Gauge({
    name: 'collab_slack_redis_up',
    help: 'Whether Redis answered a PING within 2 s at this scrape (1) or not (0)',
    registers: [registry],
    async collect() {
      let up = redises.length > 0;
      for (const redis of redises) {
        const answered = await Promise.race([
          redis.ping().then(
            () => true,
            () => false,
          ),
          new Promise<boolean>((resolve) => setTimeout(resolve, 2000, false).unref()),
        ]);
        up &&= answered;
      }
      this.set(up ? 1 : 0);
    },
  });
  const budgets: { budget: BudgetView; polling: PollingIntervals | undefined }[] = [];
  const budgetGauge = (
    name: string,
    help: string,
    labelNames: string[],
    read: (row: BudgetRow) => number[],
  ) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        for (const row of await budgetRows()) {
          const values = read(row);
          if (labelNames.includes('kind')) {
            const kinds = ['feed', 'thread_active', 'thread_idle'];
            for (const [i, v] of values.entries()) this.set({ host: row.host, kind: kinds[i]! }, v);
          } else this.set({ host: row.host }, values[0]!);
        }
      },
    });
  type BudgetRow = Awaited<ReturnType<BudgetView['status']>> & { host: string; polling?: PollingIntervals };
  async function budgetRows(): Promise<BudgetRow[]> {
    const rows: BudgetRow[] = [];
    for (const { budget, polling } of budgets) {
      for (const host of budget.hosts()) {
        try {
          rows.push({ ...(await budget.status(host)), host, ...(polling ? { polling } : {}) });
        } catch {
          // Redis away: /readyz says so; the scrape still answers.
        }
      }
    }
    return rows;
  }
  budgetGauge(
    'collab_slack_budget_requests',
    'Requests sent to the service host in the last budget window, by every process',
    ['host'],
    (r) => [r.used],
  );
  budgetGauge('collab_slack_budget_limit', 'Requests allowed per budget window', ['host'], (r) => [r.limit]);
  budgetGauge(
    'collab_slack_budget_paused_seconds',
    'How long the host stays paused after a 429 (0: not paused)',
    ['host'],
    (r) => [r.pausedMs / 1000],
  );
  budgetGauge(
    'collab_slack_poll_stretch',
    'Factor by which every polling interval is stretched to keep within the budget (1: as configured)',
    ['host'],
    (r) => [r.stretch],
  );
  budgetGauge(
    'collab_slack_poll_effective_interval_seconds',
    'Polling interval in effect, by kind (feed, thread_active, thread_idle)',
    ['host', 'kind'],
    (r) =>
      r.polling
        ? [r.polling.feedIntervalMs, r.polling.threadActiveMs, r.polling.threadIdleMs].map(
            (ms) => (ms * r.stretch) / 1000,
          )
        : [],
  );

  return {
    registry,
    watchBudget(budget, polling) {
      budgets.push({ budget, polling });
    },
    ack(surface, seconds) {
      acks.inc({ surface });
      ackSeconds.observe({ surface }, seconds);
    },
    job(operation, outcome) {
      jobs.inc({ operation, outcome });
    },
    apiResponse(event: ResponseEvent) {
      const status = event.status === undefined ? 'none' : String(event.status);
      apiSeconds.observe({ operation: event.operation, status }, event.durationMs / 1000);
      if (event.error !== undefined || (event.status !== undefined && event.status >= 400)) {
        apiErrors.inc({ operation: event.operation, status, kind: event.error ?? 'unknown' });
      }
    },
    watchQueue(queue) {
      queues.push(queue);
    },
    watchRedis(redis) {
      redises.push(redis);
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
