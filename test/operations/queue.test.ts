/**
 * The enqueue, one round trip: BullMQ's add script takes the idempotency key (its deduplication
 * id, held a day) and adds the job, or answers the job that holds the key. What it must keep:
 * - a duplicate is a duplicate of the first job — while it is queued, and after it ran and
 *   BullMQ trimmed its record (the key outlives the job);
 * - deliveries racing each other make one job;
 * - malformed data never enters the queue, and takes no key;
 * - one command from the client per enqueue, counted (MONITOR), not timed;
 * - Redis going away mid-enqueue (the connection drops, or the answer stalls past the client's
 *   timeout) neither loses the operation nor queues it twice.
 */
import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Socket } from 'node:net';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_TTL, createOperationsQueue, type OperationsQueue } from '../../src/operations/queue.ts';
import type { Origin } from '../../src/operations/schemas.ts';
import { connectRedis, type Redis, whenReady } from '../../src/store/redis.ts';
import { REDIS_URL } from '../support/harness.ts';

const TEAM = 'T_ENQ';
const origin: Origin = {
  teamId: TEAM,
  userId: 'U_1',
  slackChannel: 'C_1',
  responseUrl: 'https://hooks.slack.com/commands/T/1/x',
  receivedAt: 1,
  source: 'command',
};
const data = { origin, post: { id: 'pst_1' } };
const key = () => `k-${randomBytes(6).toString('hex')}`;

describe('enqueue: one round trip, and the idempotency key never swallows nor doubles an operation', () => {
  const prefix = `enq-${randomBytes(4).toString('hex')}`;
  let redis: Redis;
  let ops: OperationsQueue;
  beforeAll(async () => {
    redis = connectRedis(REDIS_URL, 'producer');
    await whenReady(redis, 10_000);
    ops = createOperationsQueue(redis, { prefix, attempts: 1, backoffMs: 100 });
  });
  afterAll(async () => {
    await ops.queue.obliterate({ force: true });
    await ops.close();
    const found = await redis.keys(`${prefix}:*`);
    if (found.length > 0) await redis.del(...found);
    redis.disconnect();
  });

  /** Every job of the queue, whatever its state. */
  const allJobs = async () =>
    (await ops.queue.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'])).filter(
      (job) => job !== undefined,
    );
  const jobsOfKey = async (idempotencyKey: string) => {
    const jobId = await ops.jobIdOf(TEAM, idempotencyKey);
    return (await allJobs()).filter((job) => job.id === jobId);
  };
  /** The TTL left on the deduplication key of the job (ms), as Redis holds it. */
  const keyTtl = async (jobId: string) => {
    const deduplicationId = (await ops.queue.getJob(jobId))?.deduplicationId;
    expect(deduplicationId).toBeDefined();
    return redis.pttl(`${ops.queue.keys.de}:${deduplicationId}`);
  };

  it('a duplicate of a queued job is a duplicate of it, and adds nothing', async () => {
    const idempotencyKey = key();
    const first = await ops.enqueue('resolvePost', data, { idempotencyKey });
    const again = await ops.enqueue('resolvePost', data, { idempotencyKey });
    expect(first.status).toBe('queued');
    expect(again).toEqual({ status: 'duplicate', jobId: first.jobId });
    expect(await ops.jobIdOf(TEAM, idempotencyKey)).toBe(first.jobId);
    expect((await jobsOfKey(idempotencyKey)).map((job) => job.id)).toEqual([first.jobId]);
    // The key is held a day, whatever the job's own life.
    const ttl = await keyTtl(first.jobId);
    expect(ttl).toBeGreaterThan(CLAIM_TTL - 60_000);
    expect(ttl).toBeLessThanOrEqual(CLAIM_TTL);
    // The same key in another workspace is another operation.
    const other = await ops.enqueue(
      'resolvePost',
      { ...data, origin: { ...origin, teamId: 'T_OTHER' } },
      { idempotencyKey },
    );
    expect(other.status).toBe('queued');
    expect(other.jobId).not.toBe(first.jobId);
  });

  // BullMQ's own trimming (removeOnComplete / removeOnFail by count or age) removes the record
  // and keeps the key; only an explicit remove (job.remove(), queue.clean) deletes it.
  for (const outcome of ['completed', 'failed'] as const) {
    it(`a duplicate after the job ${outcome} and BullMQ trimmed its record is still a duplicate of it`, async () => {
      const idempotencyKey = key();
      const first = await ops.enqueue('resolvePost', data, { idempotencyKey });
      expect(first.status).toBe('queued');
      // Another job of the queue that keeps only itself in the finished set: when it finishes,
      // BullMQ trims the first job's record (removeJobsByMaxCount), as a busy queue would.
      const trim = { count: 1 };
      const raw = new Queue(ops.queue.name, { connection: redis, prefix });
      const workerConnection = connectRedis(REDIS_URL, 'worker');
      const worker = new Worker(
        ops.queue.name,
        async () => {
          if (outcome === 'failed') throw new UnrecoverableError('failed on purpose');
        },
        { connection: workerConnection, prefix, autorun: false },
      );
      const trimmer = `trimmer-${randomBytes(4).toString('hex')}`;
      const finished = new Promise<void>((resolve) => {
        worker.on('completed', (job) => job.id === trimmer && resolve());
        worker.on('failed', (job) => job?.id === trimmer && resolve());
      });
      try {
        await raw.add('resolvePost', data, {
          jobId: trimmer,
          ...(outcome === 'completed' ? { removeOnComplete: trim } : { removeOnFail: trim }),
        });
        void worker.run();
        await finished;
      } finally {
        await worker.close();
        await raw.close();
        workerConnection.disconnect();
      }
      expect(await ops.queue.getJob(first.jobId)).toBeUndefined();

      const again = await ops.enqueue('resolvePost', data, { idempotencyKey });
      expect(again).toEqual({ status: 'duplicate', jobId: first.jobId });
      expect(await jobsOfKey(idempotencyKey)).toEqual([]);
      await ops.queue.remove(trimmer);
    });
  }

  it('deliveries racing each other make one job', async () => {
    const idempotencyKey = key();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => ops.enqueue('resolvePost', data, { idempotencyKey })),
    );
    const jobId = await ops.jobIdOf(TEAM, idempotencyKey);
    expect(results.filter((r) => r.status === 'queued')).toEqual([{ status: 'queued', jobId }]);
    expect(results.filter((r) => r.status === 'duplicate')).toHaveLength(7);
    expect(new Set(results.map((r) => r.jobId))).toEqual(new Set([jobId]));
    expect((await jobsOfKey(idempotencyKey)).map((job) => job.id)).toEqual([jobId]);
  });

  // The worker does not check job data again (operations/schemas.ts): enqueue is the door.
  it('malformed data never enters the queue: the enqueue throws, and leaves neither job nor key', async () => {
    const idempotencyKey = key();
    const malformed = [
      { origin: { ...origin, teamId: '' }, post: { id: 'pst_1' } },
      { origin, post: {} },
      { origin: { ...origin, receivedAt: 'soon' }, post: { id: 'pst_1' } },
      { post: { id: 'pst_1' } },
    ];
    const count = async () => Object.values(await ops.queue.getJobCounts()).reduce((sum, n) => sum + n, 0);
    const before = await count();
    for (const bad of malformed) {
      await expect(ops.enqueue('resolvePost', bad as never, { idempotencyKey })).rejects.toThrow();
    }
    expect(await count()).toBe(before);
    expect(await ops.jobIdOf(TEAM, idempotencyKey)).toBeUndefined();
    // ... and the well-formed retry is queued, not taken for a duplicate.
    expect((await ops.enqueue('resolvePost', data, { idempotencyKey })).status).toBe('queued');
  });

  it('what is queued is the parsed data: defaults filled in, unknown fields dropped', async () => {
    const { jobId } = await ops.enqueue('listPosts', { origin, extra: 'x' } as never, {
      idempotencyKey: key(),
    });
    const job = await ops.queue.getJob(jobId);
    expect(job?.data).toEqual({ origin, unresolvedOnly: false });
  });

  it('one round trip: a fresh enqueue and a duplicate each send Redis exactly one command', async () => {
    // A private connection, so that MONITOR can tell its commands from everyone else's.
    const own = connectRedis(REDIS_URL, 'producer');
    await whenReady(own, 10_000);
    const counted = createOperationsQueue(own, { prefix, attempts: 1, backoffMs: 100 });
    const watcher = connectRedis(REDIS_URL, 'producer');
    const monitor = await watcher.monitor();
    try {
      const address = /addr=(\S+)/.exec(String(await own.client('INFO')))?.[1];
      expect(address).toBeDefined();
      const seen: string[][] = [];
      let onSeen = () => {};
      monitor.on('monitor', (_time: string, args: string[], source: string) => {
        if (source.endsWith(address!)) {
          seen.push(args);
          onSeen();
        }
      });
      /** The commands `own` sent while `run` ran: between two markers it sends itself. */
      const commandsOf = async (run: () => Promise<unknown>) => {
        const marker = randomBytes(4).toString('hex');
        await own.echo(`start-${marker}`);
        await run();
        await own.echo(`end-${marker}`);
        await new Promise<void>((resolve) => {
          onSeen = () => seen.some((args) => args[1] === `end-${marker}`) && resolve();
          onSeen();
        });
        const start = seen.findIndex((args) => args[1] === `start-${marker}`);
        const end = seen.findIndex((args) => args[1] === `end-${marker}`);
        return seen.slice(start + 1, end).map((args) => args[0]!.toLowerCase());
      };
      // The first use of the connection may load BullMQ's script (NOSCRIPT, then EVAL): once.
      await counted.enqueue('resolvePost', data, { idempotencyKey: key() });
      for (let i = 0; i < 3; i++) {
        const idempotencyKey = key();
        expect(await commandsOf(() => counted.enqueue('resolvePost', data, { idempotencyKey }))).toEqual([
          'evalsha',
        ]);
        expect(await commandsOf(() => counted.enqueue('resolvePost', data, { idempotencyKey }))).toEqual([
          'evalsha',
        ]);
      }
    } finally {
      monitor.disconnect();
      watcher.disconnect();
      await counted.close();
      own.disconnect();
    }
  });

  describe('Redis goes away mid-enqueue', () => {
    type Fault = 'dropped before Redis ran the add' | 'dropped after Redis ran the add' | 'answer stalled';
    /**
     * A TCP proxy in front of Redis that hits BullMQ's add script once: the connection drops
     * before the script reaches Redis, or after Redis ran it (its answer lost), or the answer is
     * held past the producer's 1.5 s command timeout (it ran; the client gave up on it) until
     * the next add comes.
     */
    async function proxy(fault: Fault) {
      const target = new URL(REDIS_URL);
      const redisAt = { host: target.hostname, port: Number(target.port || 6379) };
      const seen = { hit: false, adds: 0 };
      const server = createServer((client: Socket) => {
        const upstream = createConnection(redisAt);
        let held: Buffer[] | undefined;
        const cut = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on('data', (chunk) => {
          // A script call: EVAL on the connection's first use, EVALSHA after.
          const add = /\r\n(eval|evalsha)\r\n/i.test(chunk.toString('latin1'));
          if (add) seen.adds += 1;
          if (add && !seen.hit) {
            seen.hit = true;
            if (fault === 'dropped before Redis ran the add') {
              seen.adds -= 1;
              cut();
              return;
            }
            held = [];
            if (fault === 'dropped after Redis ran the add') upstream.once('data', cut);
          } else if (add && held && fault === 'answer stalled') {
            // The retry: the stalled answer comes now, late, then everything flows again.
            for (const late of held) client.write(late);
            held = undefined;
          }
          upstream.write(chunk);
        });
        upstream.on('data', (chunk) => {
          if (held) held.push(chunk);
          else client.write(chunk);
        });
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as { port: number };
      target.host = `127.0.0.1:${port}`;
      return { server, url: target.toString(), seen };
    }

    const faults: Array<{ fault: Fault; told: string }> = [
      // ioredis resends what was unanswered once it reconnects: the script runs once, or twice
      // and then finds the key holding its own attempt's id.
      { fault: 'dropped before Redis ran the add', told: 'queued' },
      { fault: 'dropped after Redis ran the add', told: 'queued' },
      // The person heard "try again"; the retry finds the job the first attempt added.
      { fault: 'answer stalled', told: 'try again, then already on it' },
    ];
    for (const { fault, told } of faults) {
      it(`${fault}: the operation is queued exactly once, and the person is told "${told}"`, async () => {
        const { server, url, seen } = await proxy(fault);
        const through = connectRedis(url, 'producer');
        await whenReady(through, 10_000);
        const proxied = createOperationsQueue(through, { prefix, attempts: 1, backoffMs: 100 });
        try {
          const idempotencyKey = key();
          const first = await proxied
            .enqueue('resolvePost', data, { idempotencyKey })
            .catch((error: unknown) => error as Error);
          expect(seen.hit).toBe(true);
          const jobId = await ops.jobIdOf(TEAM, idempotencyKey);
          expect(jobId).toBeDefined();
          if (told === 'queued') {
            expect(first).toEqual({ status: 'queued', jobId });
            expect(seen.adds).toBe(fault === 'dropped after Redis ran the add' ? 2 : 1);
          } else {
            expect(first).toBeInstanceOf(Error);
            // What the listener does next: the person (or Slack) sends it again.
            const retry = await proxied.enqueue('resolvePost', data, { idempotencyKey });
            expect(retry).toEqual({ status: 'duplicate', jobId });
          }
          expect((await jobsOfKey(idempotencyKey)).map((job) => job.id)).toEqual([jobId]);
          expect(await ops.enqueue('resolvePost', data, { idempotencyKey })).toEqual({
            status: 'duplicate',
            jobId,
          });
        } finally {
          await proxied.close();
          through.disconnect();
          await new Promise<void>((resolve) => server.close(() => resolve()));
        }
      });
    }
  });
});
