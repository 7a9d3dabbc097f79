/**
 * The producer side of the operations queue: one BullMQ queue, one job name per operation.
 *
 * Idempotency: a retried Slack event, a double-clicked button or a resubmitted modal carries
 * the same Slack identifiers, so the listener derives the same key. The key is claimed with
 * `SET NX EX` for a day — far longer than a job record lives — and the job id is derived
 * from it, so a duplicate is dropped even after the first job was trimmed.
 *
 * The claim is `pending` until the job is added, then `queued`. Claim and add are two round
 * trips, and Redis can go away between them (or lose the claim's answer, which ioredis then
 * resends and finds taken): a `pending` claim without its job is not a duplicate, so the
 * person's retry adds the job (a second add of the same job id is a no-op while it exists).
 */
import { createHash } from 'node:crypto';
import { Queue, type Telemetry } from 'bullmq';
import { type KeySpace, keys } from '../store/keys.ts';
import { type Redis, waitReplicas } from '../store/redis.ts';
import { JOB_SCHEMAS, type JobData, type JobInput, type Operation } from './schemas.ts';
import { QUEUE_NAME, shardNames, shardOf } from './shards.ts';

export { QUEUE_NAME };

/** How long an idempotency claim is held: a day outlives any retry schedule. */
export const CLAIM_TTL_SECONDS = 24 * 60 * 60;
const CLAIM_PENDING = 'pending';
const CLAIM_QUEUED = 'queued';

export interface QueueSettings extends KeySpace {
  prefix: string;
  /** queues the operations are spread over, by workspace (operations/shards.ts); default 1 */
  shards?: number | undefined;
  /** a Redis Cluster: shard names carry hash tags, keys of a team share a slot */
  cluster?: boolean | undefined;
  /**
   * Cluster only: after an enqueue, WAIT until this many replicas have it (at most `timeoutMs`)
   * before answering, so a master that fails right after cannot take the queued job with it.
   */
  wait?: { replicas: number; timeoutMs: number } | undefined;
  attempts: number;
  backoffMs: number;
  /** BullMQ telemetry (OpenTelemetry when tracing is on): the enqueue's span and its context in the job */
  telemetry?: Telemetry | undefined;
}

export type EnqueueResult = { status: 'queued'; jobId: string } | { status: 'duplicate'; jobId: string };

export interface OperationsQueue {
  /** shard 0 — the only queue with one shard (tools and tests of one workspace use it) */
  readonly queue: Queue;
  /** every shard, shard 0 first */
  readonly queues: readonly Queue[];
  /** the shard of a workspace's operations and schedules */
  queueFor(teamId: string): Queue;
  enqueue<O extends Operation>(
    operation: O,
    data: JobInput<O>,
    options: { idempotencyKey: string },
  ): Promise<EnqueueResult>;
  close(): Promise<void>;
}

/** A job id from an idempotency key: stable, no `:`, never an integer. */
export function jobIdFor(teamId: string, idempotencyKey: string): string {
  const digest = createHash('sha256').update(`${teamId}\n${idempotencyKey}`).digest('hex').slice(0, 32);
  return `op-${digest}`;
}

export function createOperationsQueue(connection: Redis, settings: QueueSettings): OperationsQueue {
  const shards = settings.shards ?? 1;
  const queues = shardNames({ shards, cluster: settings.cluster ?? false }).map((name) => {
    const queue = new Queue(name, {
      connection,
      prefix: settings.prefix,
      ...(settings.telemetry ? { telemetry: settings.telemetry } : {}),
      defaultJobOptions: {
        attempts: settings.attempts,
        backoff: { type: 'exponential', delay: settings.backoffMs, jitter: 0.5 },
        removeOnComplete: { age: 3600, count: 1000 },
        removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
      },
    });
    queue.on('error', () => {});
    return queue;
  });
  const queueFor = (teamId: string) => queues[shardOf(teamId, queues.length)]!;
  const wait = settings.wait && settings.wait.replicas > 0 ? settings.wait : undefined;

  /** A claim taken by an attempt that never got its job queued (or is adding it right now). */
  async function claimWithoutJob(queue: Queue, claimKey: string, jobId: string): Promise<boolean> {
    if ((await connection.get(claimKey)) !== CLAIM_PENDING) return false;
    return (await queue.getJob(jobId)) === undefined;
  }

  return {
    queue: queues[0]!,
    queues,
    queueFor,
    async enqueue(operation, data, { idempotencyKey }) {
      const parsed = JOB_SCHEMAS[operation].parse(data) as JobData<typeof operation>;
      // Jobs a person asked for carry their origin; scheduled and system jobs carry the team.
      const teamId = 'origin' in parsed ? parsed.origin.teamId : parsed.teamId;
      const queue = queueFor(teamId);
      const jobId = jobIdFor(teamId, idempotencyKey);
      const claimKey = keys(settings, teamId).claim(jobId);
      const claimed = await connection.set(claimKey, CLAIM_PENDING, 'EX', CLAIM_TTL_SECONDS, 'NX');
      if (claimed !== 'OK' && !(await claimWithoutJob(queue, claimKey, jobId)))
        return { status: 'duplicate', jobId };
      try {
        await queue.add(operation, parsed, { jobId });
      } catch (error) {
        // Nothing was queued: release the claim so the person's retry is not taken for a duplicate.
        if (claimed === 'OK') await connection.del(claimKey).catch(() => {});
        throw error;
      }
      if (wait) {
        // Acked only once a replica has the job and the claim: a failover cannot undo the ack.
        const jobKey = `${settings.prefix}:${queue.name}:${jobId}`;
        await waitReplicas(connection, [jobKey, claimKey], wait.replicas, wait.timeoutMs);
      }
      // Best effort, off the ack's path: a claim left `pending` only costs a duplicate a look at the job.
      void connection.set(claimKey, CLAIM_QUEUED, 'EX', CLAIM_TTL_SECONDS, 'XX').catch(() => {});
      return { status: 'queued', jobId };
    },
    async close() {
      await Promise.all(queues.map((queue) => queue.close()));
    },
  };
}
