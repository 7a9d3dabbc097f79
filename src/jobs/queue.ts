/**
 * The producer side of the operations queue: one BullMQ queue, one job name per operation.
 *
 * Idempotency: a retried Slack event, a double-clicked button or a resubmitted modal carries
 * the same Slack identifiers, so the listener derives the same key. The key is claimed for a
 * day — far longer than a job record lives — and the job id is derived from it, so a duplicate
 * is dropped even after the first job was trimmed.
 *
 * One round trip, atomic: the claim (a script) and BullMQ's add go to Redis in one MULTI. The
 * claim script takes the key (`SET NX`) and, when it was taken before, holds the add back: it
 * sets the job's BullMQ deduplication key (with a TTL, so BullMQ never takes it for stale), and
 * BullMQ skips an add whose deduplication key exists. A first claim and its job therefore exist
 * together or not at all: there is no claim without its job for a retry to trip over. (A
 * `pending` claim left by an earlier version, whose job is gone, is still taken over.)
 */
import { createHash } from 'node:crypto';
import { Job, type JobsOptions, Queue, SpanKind, type Telemetry } from 'bullmq';
import type { Result } from 'ioredis';
import { JOB_SCHEMAS, type JobData, type JobInput, type Operation } from '../operations/schemas.ts';
import { keys } from '../store/keys.ts';
import type { Redis } from '../store/redis.ts';
import { whenReady } from '../store/redis.ts';

export const QUEUE_NAME = 'operations';

/** How long an idempotency claim is held: a day outlives any retry schedule. */
export const CLAIM_TTL_SECONDS = 24 * 60 * 60;
/** BullMQ's script that adds a job (neither delayed nor prioritised); its name carries BullMQ's version. */
const ADD_SCRIPT = 'addStandardJob:';

/**
 * KEYS: claim, the job's deduplication key, the job's key
 * ARGV: claim ttl seconds
 * Answers 1 (claimed: the add goes on) or 0 (a duplicate: the add is held back).
 */
const CLAIM_SCRIPT = `
if redis.call('SET', KEYS[1], 'queued', 'EX', ARGV[1], 'NX') then return 1 end
if redis.call('GET', KEYS[1]) == 'pending' and redis.call('EXISTS', KEYS[3]) == 0 then
  redis.call('SET', KEYS[1], 'queued', 'EX', ARGV[1])
  return 1
end
redis.call('SET', KEYS[2], 'claimed', 'PX', 60000)
return 0`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    operationClaim(claim: string, dedup: string, job: string, ttlSeconds: number): Result<number, Context>;
  }
}

export interface QueueSettings {
  prefix: string;
  attempts: number;
  backoffMs: number;
  /** BullMQ telemetry (OpenTelemetry when tracing is on): the enqueue's span and its context in the job */
  telemetry?: Telemetry | undefined;
}

export type EnqueueResult = { status: 'queued'; jobId: string } | { status: 'duplicate'; jobId: string };

export interface OperationsQueue {
  readonly queue: Queue;
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
  const jobOptions: JobsOptions = {
    attempts: settings.attempts,
    backoff: { type: 'exponential', delay: settings.backoffMs, jitter: 0.5 },
    removeOnComplete: { age: 3600, count: 1000 },
    removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
  };
  const queue = new Queue(QUEUE_NAME, {
    connection,
    prefix: settings.prefix,
    ...(settings.telemetry ? { telemetry: settings.telemetry } : {}),
    defaultJobOptions: jobOptions,
  });
  queue.on('error', () => {});
  if (typeof (connection as Partial<Redis>).operationClaim !== 'function') {
    connection.defineCommand('operationClaim', { numberOfKeys: 3, lua: CLAIM_SCRIPT });
  }
  const jobKey = (jobId: string) => `${settings.prefix}:${QUEUE_NAME}:${jobId}`;

  /**
   * The connection the MULTI goes on: a second connection of the producer's kind that knows only
   * the claim and BullMQ's add. ioredis copies every script a connection knows (BullMQ's ~50)
   * onto each MULTI it makes: on a busy web role that copying was a sixth of its CPU.
   */
  let lean: Promise<Redis> | undefined;
  async function leanConnection(add: string): Promise<Redis> {
    lean ??= (async () => {
      const conn = connection.duplicate();
      conn.on('error', () => {});
      conn.defineCommand('operationClaim', { numberOfKeys: 3, lua: CLAIM_SCRIPT });
      const scripts = connection.scriptsSet as Record<string, { lua: string; numberOfKeys: number | null }>;
      const name = Object.keys(scripts).find((n) => n.startsWith(add));
      const script = name ? scripts[name] : undefined;
      if (!name || !script) throw new Error(`BullMQ's ${add} script is not defined on the connection`);
      conn.defineCommand(name, { lua: script.lua, numberOfKeys: script.numberOfKeys ?? 0 });
      try {
        await whenReady(conn, 1500);
      } catch (error) {
        // Redis away at the first enqueue: the next one tries again; afterwards the connection
        // reconnects by itself and, like the producer's, fails fast while Redis is away.
        conn.disconnect();
        lean = undefined;
        throw error;
      }
      return conn;
    })();
    return lean;
  }

  /** Claim and add in one MULTI; answers whether the claim was this call's. */
  async function claimAndAdd(
    operation: Operation,
    data: unknown,
    claimKey: string,
    jobId: string,
    telemetryMetadata?: string,
  ): Promise<boolean> {
    // BullMQ's scripts are defined on the connection once the queue is ready.
    await queue.waitUntilReady();
    const job = new Job(
      queue,
      operation,
      data,
      {
        ...jobOptions,
        jobId,
        deduplication: { id: jobId },
        ...(telemetryMetadata ? { telemetry: { metadata: telemetryMetadata } } : {}),
      },
      jobId,
    );
    const conn = await leanConnection(ADD_SCRIPT);
    const multi = conn.multi();
    multi.operationClaim(claimKey, `${jobKey('de')}:${jobId}`, jobKey(jobId), CLAIM_TTL_SECONDS);
    // BullMQ queues its add on a transaction through `runCommand` (what its own MULTIs have).
    const transaction = Object.assign(multi, {
      runCommand(name: string, args: unknown[]) {
        (multi as unknown as Record<string, (a: unknown[]) => unknown>)[name]!(args);
        return transaction;
      },
    });
    void job.addJob(transaction as unknown as Parameters<typeof job.addJob>[0]).catch(() => {});
    const results = await multi.exec();
    if (!results) throw new Error('the enqueue transaction was discarded');
    const [claimError, claimed] = results[0] ?? [];
    const [addError, added] = results[1] ?? [];
    if (claimError) throw claimError;
    if (addError) throw addError;
    if (typeof added === 'number' && added < 0) throw new Error(`the add was refused (${added})`);
    return claimed === 1;
  }

  return {
    queue,
    async enqueue(operation, data, { idempotencyKey }) {
      const parsed = JOB_SCHEMAS[operation].parse(data) as JobData<typeof operation>;
      // Jobs a person asked for carry their origin; scheduled and system jobs carry the team.
      const teamId = 'origin' in parsed ? parsed.origin.teamId : parsed.teamId;
      const jobId = jobIdFor(teamId, idempotencyKey);
      const claimKey = keys(settings, teamId).claim(jobId);
      const claimed = settings.telemetry
        ? await queue.trace(SpanKind.PRODUCER, 'add', `${QUEUE_NAME}.${operation}`, (span, metadata) => {
            span?.setAttributes({ 'bullmq.job.name': operation, 'bullmq.job.id': jobId });
            return claimAndAdd(operation, parsed, claimKey, jobId, metadata);
          })
        : await claimAndAdd(operation, parsed, claimKey, jobId);
      return claimed ? { status: 'queued', jobId } : { status: 'duplicate', jobId };
    },
    async close() {
      await queue.close();
      if (lean) (await lean.catch(() => undefined))?.disconnect();
    },
  };
}
