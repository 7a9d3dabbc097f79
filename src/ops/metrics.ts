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
  render(): Promise<string>;
  contentType: string;
}

export function createMetrics(options: { defaults?: boolean; now?: () => number } = {}): Metrics {
  const now = options.now ?? Date.now;
  const registry = new Registry();
  if (options.defaults !== false) collectDefaultMetrics({ register: registry, prefix: 'collab_slack_' });

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

  return {
    registry,
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
