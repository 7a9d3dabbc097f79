/**
 * The producer side of the operations queue: one BullMQ queue, one job name per operation.
 *
 * Idempotency: a retried Slack event, a double-clicked button or a resubmitted modal carries
 * the same Slack identifiers, so the listener derives the same key. The enqueue is one round
 * trip — BullMQ's add script — and the key rides in it as the job's deduplication id: the script
 * sets `<queue>:de:<digest of team and key>` to the job id (`SET PX NX`, a day) and adds the
 * job only if it set it, atomically. A duplicate adds nothing and gets the first job's id.
 *
 * - The key is held a day — far longer than Slack's retries, the default retry schedule and a
 *   completed job's record (an hour) — and outlives the record: with a ttl, BullMQ deletes the
 *   key neither when the job finishes nor when `removeOnComplete` / `removeOnFail` trims it;
 *   only an explicit `job.remove()` (an operator, a forgotten workspace) or `queue.clean` does.
 *   So a duplicate is dropped even after the job is gone. A failed job's record is kept a week
 *   for operators: when a job fails, the worker holds its key a day longer than that
 *   (`FAILED_CLAIM_TTL`, engine/worker.ts), so no key ever ends before its job's record.
 * - Each attempt brings a job id of its own, so the script's answer says who won: its own id →
 *   queued; another → a duplicate of that job. A lost answer that ioredis resends finds the key
 *   holding its own id (queued, once); one that timed out client-side told the person "try
 *   again", and the retry hears "already on it" of the job that was added — never a claim
 *   without its job, since key and job are written by one script.
 * - The key is in the queue's keyspace, so on a Redis Cluster it is in the shard's slot.
 *
 * Fair shares (fairness.ts): a workspace's operations beyond its allowance of the minute get a
 * BullMQ priority, which puts them behind everyone's operations in line; still one command.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Queue, type Telemetry } from 'bullmq';
import type { KeySpace } from '../store/keys.ts';
import { isCluster, type Redis, waitReplicas } from '../store/redis.ts';
import { DEFAULT_FAIRNESS, type FairnessSettings, fairShare } from './fairness.ts';
import { JOB_SCHEMAS, type JobData, type JobInput, type Operation } from './schemas.ts';
import { QUEUE_NAME, shardNames, shardOf } from './shards.ts';

export { QUEUE_NAME };

/** How long an idempotency key is held (ms): a day outlives Slack's retries, the retry schedule and a completed job's record. */
export const CLAIM_TTL = 24 * 60 * 60 * 1000;
/** How long a failed job's record is kept for operators (s). */
export const FAILED_RECORD_AGE_S = 7 * 24 * 3600;
/** How long the key of a job that failed is held (ms): a day longer than its record. */
export const FAILED_CLAIM_TTL = FAILED_RECORD_AGE_S * 1000 + CLAIM_TTL;

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
  /** each workspace's allowance of operations in line per window (fairness.ts); default 20 a minute */
  fairness?: FairnessSettings | undefined;
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
  /** The job an idempotency key was queued as, while the key is held (a day): tools and tests. */
  jobIdOf(teamId: string, idempotencyKey: string): Promise<string | undefined>;
  close(): Promise<void>;
}

/**
 * The deduplication id of an idempotency key: stable, no `:`; `op-`, apart from the pollers'
 * `poll-` ids (jobs/pollDispatch.ts) in the same queue.
 */
function deduplicationIdOf(teamId: string, idempotencyKey: string): string {
  return `op-${createHash('sha256').update(`${teamId}\n${idempotencyKey}`).digest('hex').slice(0, 32)}`;
}

/**
 * The job id of one attempt to enqueue: its key's id and a random tail of 32 bits (a v4 UUID's
 * first eight hex digits, all random); no `:`, never an integer. A UUID comes from Node's pooled
 * entropy; `randomBytes` asks the kernel on every call, on the path of every acknowledgement.
 */
function attemptIdOf(deduplicationId: string): string {
  return `${deduplicationId}-${randomUUID().slice(0, 8)}`;
}

/** Whether commands go to Redis now (a cluster reports `connect` once it is up, as BullMQ knows). */
function connected(connection: Redis): boolean {
  return connection.status === 'ready' || (isCluster(connection) && connection.status === 'connect');
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
        removeOnFail: { age: FAILED_RECORD_AGE_S, count: 5000 },
      },
    });
    queue.on('error', () => {});
    return queue;
  });
  const queueFor = (teamId: string) => queues[shardOf(teamId, queues.length)]!;
  const wait = settings.wait && settings.wait.replicas > 0 ? settings.wait : undefined;
  const fair = fairShare(settings.fairness ?? DEFAULT_FAIRNESS);

  return {
    queue: queues[0]!,
    queues,
    queueFor,
    async enqueue(operation, data, { idempotencyKey }) {
      const parsed = JOB_SCHEMAS[operation].parse(data) as JobData<typeof operation>;
      // Jobs a person asked for carry their origin; scheduled and system jobs carry the team.
      const teamId = 'origin' in parsed ? parsed.origin.teamId : parsed.teamId;
      const queue = queueFor(teamId);
      const deduplicationId = deduplicationIdOf(teamId, idempotencyKey);
      const attemptId = attemptIdOf(deduplicationId);
      // BullMQ's add waits for a connection that has not been ready yet; the person must hear
      // "try again" at once instead, as every other command fails while Redis is away.
      if (!connected(connection))
        throw new Error(`Redis is not connected (${connection.status}): nothing was queued`);
      const priority = fair.admit(teamId);
      const job = await queue.add(operation, parsed, {
        jobId: attemptId,
        deduplication: { id: deduplicationId, ttl: CLAIM_TTL },
        ...(priority !== undefined ? { priority } : {}),
      });
      const jobId = job.id ?? attemptId;
      if (jobId !== attemptId) return { status: 'duplicate', jobId };
      if (wait) {
        // Acked only once a replica has the job and its key: a failover cannot undo the ack. One
        // script wrote both, in the queue's slot: one WAIT on the job's master covers the key too.
        await waitReplicas(connection, [queue.toKey(jobId)], wait.replicas, wait.timeoutMs);
      }
      return { status: 'queued', jobId };
    },
    async jobIdOf(teamId, idempotencyKey) {
      const jobId = await queueFor(teamId).getDeduplicationJobId(deduplicationIdOf(teamId, idempotencyKey));
      return jobId ?? undefined;
    },
    async close() {
      await Promise.all(queues.map((queue) => queue.close()));
    },
  };
}
