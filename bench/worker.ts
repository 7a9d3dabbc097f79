/**
 * Worker throughput, scaling, queue overhead and Redis commands per operation, against the
 * zero-latency emulator and the Slack stand-in, on a redis-server of the benchmark's own (a free
 * port, nothing kept on disk), so other users of 127.0.0.1:6379 neither disturb nor see it.
 *
 *   npm run bench:worker -- [--jobs 4000] [--concurrency 1,4,16,64] [--processes 1,2,4]
 *                           [--runtime tsx|js] [--overhead 1000] [--prof DIR] [--heap DIR]
 *                           [--rounds 10] [--trips-only] [--node-options '--max-semi-space-size=32']
 *                           [--floor bare|mark]
 *
 * 1. throughput: `--jobs` resolvePost operations are enqueued (paused queue), N worker processes
 *    (`src/main.ts --role=worker`, real processors) start, the queue resumes, and the clock runs
 *    until the queue is empty. Operations/s per worker process, at each concurrency.
 *    Beside each, the floor (bench/floor-worker.ts): a bare BullMQ worker in its own process doing
 *    only the processor's two calls (the API's resolve, the response_url post), at the same
 *    concurrency on the same jobs. `--floor mark` makes it the floor of an exactly-once worker
 *    that tells inside the run: it also makes, per operation, the telling's mark with the cards'
 *    look-up as a Redis round trip of its own (floor-worker.ts, FLOOR_MARK), as the bot's worker
 *    did before it sent that mark with the job's completion (engine/tellAfterCompletion.ts).
 *    The worker's share of its floor comes from interleaved rounds (`--rounds`, at concurrency 16):
 *    the bot's worker and the floor run side by side on queues of their own, and take turns
 *    draining `--jobs`/`--rounds` operations each, every other turn the floor first. This
 *    machine's speed drifts by a third within minutes; a turn lasts a second or two, so both
 *    see the same machine, and the median of the rounds is the figure.
 * 2. scaling: the same with 1, 2 and 4 worker processes at concurrency 16.
 * 3. queue overhead: one operation at a time, a direct client call vs enqueue → BullMQ worker
 *    (in this process, the same client call as its processor) → completed.
 * 4. Redis commands per operation: `INFO commandstats` deltas of the enqueue and of the worker
 *    phase of a throughput run (commands run inside Lua scripts included), and client round trips
 *    (MONITOR, scripts' inner commands excluded) against the floor of one round trip per enqueue.
 * `--prof DIR` has every worker process write a CPU profile there; `--heap DIR` a sampling heap
 * profile that keeps what garbage collection took (bench/lib/heapSampler.mjs): what a worker
 * allocates per operation.
 * `--node-options` are given to both workers, the bot's and the floor's (the driver keeps Node's
 * defaults), so that a runtime setting is compared like with like.
 * Prints its report (date, machine, commit, command); BENCHMARKS.md is updated by hand.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'bullmq';
import { createCollabClient } from '../src/collab/client.ts';
import { createOperationsQueue, type OperationsQueue, QUEUE_NAME } from '../src/operations/queue.ts';
import type { Origin } from '../src/operations/schemas.ts';
import { startEmulator } from '../src/sandbox/emulator/index.ts';
import { findOnPath, startPrivateRedis } from '../src/sandbox/redis.ts';
import { startSlackStandIn } from '../src/sandbox/slack/index.ts';
import { connectRedis, whenReady } from '../src/store/redis.ts';
import { commandCalls } from './lib/commandStats.ts';
import {
  botEnv,
  cpuMs,
  machineLine,
  parseRuntime,
  type Runtime,
  rssMb,
  rssSampler,
  startWorkerChild,
  stopChild,
} from './lib/process.ts';
import { round, summarize } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '4000' },
    concurrency: { type: 'string', default: '1,4,16,64' },
    processes: { type: 'string', default: '1,2,4' },
    runtime: { type: 'string', default: 'tsx' },
    overhead: { type: 'string', default: '1000' },
    /** a directory: the worker processes write CPU profiles there (node --cpu-prof) */
    prof: { type: 'string' },
    /** a directory: the worker processes write sampling heap profiles there (heapSampler.mjs) */
    heap: { type: 'string' },
    /** only the round trips per operation (bot and floor), nothing written */
    'trips-only': { type: 'boolean', default: false },
    /** interleaved rounds of the bot's worker and its floor (the share of the floor); 0: none */
    rounds: { type: 'string', default: '10' },
    /** Node flags of both workers, the bot's and the floor's (e.g. '--max-semi-space-size=32') */
    'node-options': { type: 'string', default: '' },
    /** `bare`: the floor as the issue defines it; `mark`: with the exactly-once round trip */
    floor: { type: 'string', default: 'bare' },
  },
});
if (values.floor !== 'bare' && values.floor !== 'mark') throw new Error('--floor is bare or mark');
/** the floor's kind, in every line that names it */
const FLOOR = values.floor === 'mark' ? 'floor with the exactly-once round trip' : 'floor';
const JOBS = Number(values.jobs);
const CONCURRENCIES = values.concurrency.split(',').map(Number);
const PROCESSES = values.processes.split(',').map(Number);
const RUNTIME: Runtime = parseRuntime(values.runtime);
const OVERHEAD_OPS = Number(values.overhead);
const ROUNDS = Math.max(0, Number(values.rounds));
/** Node flags of both workers (experiments: a GC setting, a heap cap), so that they stay alike */
const NODE_OPTIONS = values['node-options'].split(' ').filter(Boolean);
const HEAP_SAMPLER = new URL('./lib/heapSampler.mjs', import.meta.url);
if (values.heap) HEAP_SAMPLER.searchParams.set('dir', resolve(values.heap));
const NODE_ARGS = [
  ...NODE_OPTIONS,
  ...(values.prof ? ['--cpu-prof', '--cpu-prof-dir', values.prof] : []),
  ...(values.heap ? ['--import', HEAP_SAMPLER.href] : []),
];
if (values.heap) await mkdir(values.heap, { recursive: true });
const log = (line: string) => process.stdout.write(`${line}\n`);

const binary = findOnPath('redis-server');
if (!binary) throw new Error('bench:worker needs redis-server on PATH');
const machine = await machineLine();
const redisServer = await startPrivateRedis(binary);
const emulator = await startEmulator({ port: 0 });
const slack = await startSlackStandIn();
const postId = [...emulator.org().posts.keys()][0] ?? 'pst_none';
const admin = connectRedis(redisServer.url, 'worker');
await whenReady(admin, 10_000);

const origin = (i: number): Origin => ({
  teamId: 'T_LOCAL',
  userId: 'U_ADA',
  slackChannel: 'C_GENERAL',
  responseUrl: slack.responseUrl(`bench-${i}`),
  receivedAt: Date.now(),
  source: 'command',
});

/** Total calls per command from INFO commandstats. */
async function commandStats(): Promise<Map<string, number>> {
  return commandCalls(await admin.info('commandstats'));
}

function delta(before: Map<string, number>, after: Map<string, number>, ops: number) {
  const per = new Map<string, number>();
  for (const [name, calls] of after) {
    const d = calls - (before.get(name) ?? 0);
    if (d > 0 && name !== 'info') per.set(name, d / ops);
  }
  const total = [...per.values()].reduce((a, b) => a + b, 0);
  const top = [...per.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([name, n]) => `${name} ${round(n, 2)}`)
    .join(', ');
  return { total, top };
}

function settings(prefix: string) {
  return { prefix, attempts: 6, backoffMs: 1000 };
}

function workerEnv(prefix: string, concurrency: number): Record<string, string> {
  return botEnv(
    { slackUrl: slack.url, emulator, redisUrl: redisServer.url, prefix },
    {
      WORKER_CONCURRENCY: String(concurrency),
      // The emulator has no rate limit: the budget is opened so that it measures the worker, not
      // the service's 500 requests per 30 s (its Redis round trip per request is still paid).
      COLLAB_RATE_LIMIT: '1000000',
      // the worker role's /healthz server on a free port
      PORT: '0',
    },
  );
}

async function fill(queue: OperationsQueue, jobs: number) {
  const started = performance.now();
  for (let i = 0; i < jobs; i += 200) {
    const batch: Promise<unknown>[] = [];
    for (let j = i; j < Math.min(jobs, i + 200); j++) {
      batch.push(
        queue.enqueue(
          'resolvePost',
          { origin: origin(j), post: { id: postId } },
          { idempotencyKey: `bench-${randomBytes(6).toString('hex')}` },
        ),
      );
    }
    await Promise.all(batch);
  }
  return jobs / ((performance.now() - started) / 1000);
}

/** The floor worker (bench/floor-worker.ts) as a child; resolves once it takes jobs. */
async function startFloorChild(env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(new URL('./floor-worker.ts', import.meta.url), [], {
    env: { ...process.env, ...env, FLOOR_MARK: values.floor === 'mark' ? '1' : '0' },
    execArgv: ['--import', 'tsx', ...NODE_ARGS],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the floor worker exited (${String(code)})`)));
  });
  child.removeAllListeners('exit');
  return child;
}

interface Throughput {
  /** `bot` (src/main.ts --role=worker) or `floor` (bench/floor-worker.ts) */
  variant: 'bot' | 'floor';
  processes: number;
  concurrency: number;
  opsPerSecond: number;
  perProcess: number;
  failed: number;
  enqueuePerSecond: number;
  enqueueCommands: ReturnType<typeof delta>;
  workerCommands: ReturnType<typeof delta>;
  idleRssMb: number;
  peakRssMb: number;
  /** CPU ms per operation while the queue drained: the worker processes, Redis, this driver */
  cpu: { worker: number; redis: number; driver: number };
  /**
   * Client round trips per operation while the queue drained: Redis's reads of its clients'
   * requests (`total_reads_processed`; commands that left in one write are one), this driver's
   * polls of the queue's counts included (the same for bot and floor)
   */
  reads: number;
}

/** Redis's reads of its clients' requests so far (INFO stats). */
async function redisReads(): Promise<number> {
  return Number(/total_reads_processed:(\d+)/.exec(await admin.info('stats'))?.[1] ?? 0);
}

/** Redis's own CPU time so far (INFO cpu), in ms. */
async function redisCpuMs(): Promise<number> {
  const info = await admin.info('cpu');
  const read = (name: string) => Number(info.match(new RegExp(`${name}:([\\d.]+)`))?.[1] ?? 0);
  return (read('used_cpu_user') + read('used_cpu_sys')) * 1000;
}

async function cpuOf(pids: Array<number | undefined>) {
  const each = await Promise.all(pids.map(cpuMs));
  return {
    worker: each.reduce<number>((sum, ms) => sum + (ms ?? 0), 0),
    redis: await redisCpuMs(),
    driver: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  };
}

async function throughput(
  processes: number,
  concurrency: number,
  variant: 'bot' | 'floor' = 'bot',
): Promise<Throughput> {
  const prefix = `bw-${randomBytes(4).toString('hex')}`;
  const producer = connectRedis(redisServer.url, 'producer');
  await whenReady(producer, 10_000);
  const queue = createOperationsQueue(producer, settings(prefix));
  await queue.queue.pause();
  const s0 = await commandStats();
  const enqueuePerSecond = await fill(queue, JOBS);
  const s1 = await commandStats();
  const children = await Promise.all(
    Array.from({ length: processes }, () =>
      variant === 'floor'
        ? startFloorChild(workerEnv(prefix, concurrency))
        : startWorkerChild(workerEnv(prefix, concurrency), RUNTIME, NODE_ARGS),
    ),
  );
  const idle = await Promise.all(children.map((c) => rssMb(c.pid)));
  const sampler = rssSampler(children.map((c) => c.pid));
  const s2 = await commandStats();
  const cpu0 = await cpuOf(children.map((c) => c.pid));
  const reads0 = await redisReads();
  const started = performance.now();
  await queue.queue.resume();
  await drained(queue);
  const seconds = (performance.now() - started) / 1000;
  const reads1 = await redisReads();
  const cpu1 = await cpuOf(children.map((c) => c.pid));
  const s3 = await commandStats();
  const peaks = sampler.stop();
  const failed = (await queue.queue.getJobCounts('failed')).failed ?? 0;
  await Promise.all(children.map(stopChild));
  await queue.queue.obliterate({ force: true }).catch(() => {});
  await queue.close();
  producer.disconnect();
  const opsPerSecond = JOBS / seconds;
  const result: Throughput = {
    variant,
    processes,
    concurrency,
    opsPerSecond,
    perProcess: opsPerSecond / processes,
    failed,
    enqueuePerSecond,
    enqueueCommands: delta(s0, s1, JOBS),
    workerCommands: delta(s2, s3, JOBS),
    idleRssMb: Math.max(...idle.map((m) => m ?? 0)),
    peakRssMb: Math.max(...peaks),
    cpu: {
      worker: (cpu1.worker - cpu0.worker) / JOBS,
      redis: (cpu1.redis - cpu0.redis) / JOBS,
      driver: (cpu1.driver - cpu0.driver) / JOBS,
    },
    // the INFO that read reads1 is one read of its own
    reads: (reads1 - reads0 - 1) / JOBS,
  };
  log(
    `${variant}: ${processes} process(es) × concurrency ${concurrency}: ${round(opsPerSecond, 0)} ops/s (${round(result.perProcess, 0)} per process), failed ${failed}, worker RSS idle ${round(result.idleRssMb, 0)} MB peak ${round(result.peakRssMb, 0)} MB; CPU ms per op: worker ${round(result.cpu.worker, 3)}, Redis ${round(result.cpu.redis, 3)}, driver ${round(result.cpu.driver, 3)}; client round trips per op ${round(result.reads, 2)}`,
  );
  return result;
}

/**
 * The bot's worker and its floor side by side, each on a queue of its own, taking turns: each
 * round fills one queue (paused) with `jobs` operations, then times that worker draining it,
 * and the same for the other — every other round the floor first. Answers each round's share
 * of the floor and CPU ratio, and their medians. One round first, not counted, warms both.
 */
async function interleaved(concurrency: number, rounds: number, jobs: number) {
  const sides = await Promise.all(
    (['bot', 'floor'] as const).map(async (variant) => {
      const prefix = `bi-${variant}-${randomBytes(4).toString('hex')}`;
      const producer = connectRedis(redisServer.url, 'producer');
      await whenReady(producer, 10_000);
      const queue = createOperationsQueue(producer, settings(prefix));
      await queue.queue.pause();
      const child =
        variant === 'floor'
          ? await startFloorChild(workerEnv(prefix, concurrency))
          : await startWorkerChild(workerEnv(prefix, concurrency), RUNTIME, NODE_ARGS);
      return { variant, producer, queue, child };
    }),
  );
  const turn = async (side: (typeof sides)[number]) => {
    await fill(side.queue, jobs);
    const cpu0 = (await cpuMs(side.child.pid)) ?? 0;
    const started = performance.now();
    await side.queue.queue.resume();
    await drained(side.queue);
    const seconds = (performance.now() - started) / 1000;
    const cpu1 = (await cpuMs(side.child.pid)) ?? 0;
    await side.queue.queue.pause();
    return { opsPerSecond: jobs / seconds, cpuMs: cpu1 - cpu0 };
  };
  const share: number[] = [];
  const cpu: number[] = [];
  const totals = { bot: 0, floor: 0 };
  for (let r = 0; r <= rounds; r++) {
    const [bot, floor] = sides as [(typeof sides)[0], (typeof sides)[1]];
    const floorFirst = r % 2 === 1;
    const first = await turn(floorFirst ? floor : bot);
    const second = await turn(floorFirst ? bot : floor);
    const [b, f] = floorFirst ? [second, first] : [first, second];
    if (r === 0) continue;
    share.push((100 * b.opsPerSecond) / f.opsPerSecond);
    cpu.push(b.cpuMs / f.cpuMs);
    totals.bot += b.cpuMs;
    totals.floor += f.cpuMs;
  }
  for (const side of sides) {
    await stopChild(side.child);
    await side.queue.queue.obliterate({ force: true }).catch(() => {});
    await side.queue.close();
    side.producer.disconnect();
  }
  const result = {
    rounds,
    jobs,
    share: { each: share, median: median(share) },
    cpu: { each: cpu, median: median(cpu) },
    cpuMs: { bot: totals.bot / (rounds * jobs), floor: totals.floor / (rounds * jobs) },
  };
  log(
    `interleaved, ${rounds} rounds of ${jobs} at concurrency ${concurrency}: the worker does ${round(result.share.median, 0)} % of its ${FLOOR} (median; rounds ${share.map((x) => round(x, 0)).join(', ')}); CPU per op ${round(result.cpu.median, 2)}× the floor's (median)`,
  );
  return result;
}

async function drained(queue: OperationsQueue): Promise<void> {
  for (;;) {
    const counts = await queue.queue.getJobCounts('wait', 'active', 'delayed', 'prioritized');
    if (Object.values(counts).reduce((a, b) => a + b, 0) === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** One at a time: a direct client call, and the same call through the queue. */
async function overhead() {
  const prefix = `bo-${randomBytes(4).toString('hex')}`;
  const collab = createCollabClient({ baseUrl: emulator.url, apiKey: emulator.apiKey });
  const direct: number[] = [];
  for (let i = 0; i < 100; i++) await collab.resolvePost(postId, {});
  for (let i = 0; i < OVERHEAD_OPS; i++) {
    const t0 = performance.now();
    await collab.resolvePost(postId, {});
    direct.push(performance.now() - t0);
  }
  const producer = connectRedis(redisServer.url, 'producer');
  const workerConnection = connectRedis(redisServer.url, 'worker');
  await whenReady(producer, 10_000);
  const queue = createOperationsQueue(producer, settings(prefix));
  // Completions by job id; the id comes with the enqueue's answer, which may arrive after the job ran.
  const completed = new Set<string>();
  let onCompleted = () => {};
  const worker = new Worker(
    QUEUE_NAME,
    async () => {
      await collab.resolvePost(postId, {});
    },
    { connection: workerConnection, prefix, concurrency: 1 },
  );
  worker.on('completed', (job) => {
    completed.add(job.id ?? '');
    onCompleted();
  });
  await worker.waitUntilReady();
  const queued: number[] = [];
  for (let i = 0; i < 100 + OVERHEAD_OPS; i++) {
    const idempotencyKey = `o-${randomBytes(6).toString('hex')}`;
    const t0 = performance.now();
    const { jobId } = await queue.enqueue(
      'resolvePost',
      { origin: origin(i), post: { id: postId } },
      { idempotencyKey },
    );
    await new Promise<void>((resolve) => {
      onCompleted = () => completed.has(jobId) && resolve();
      onCompleted();
    });
    completed.delete(jobId);
    if (i >= 100) queued.push(performance.now() - t0);
  }
  await worker.close();
  await queue.queue.obliterate({ force: true }).catch(() => {});
  await queue.close();
  producer.disconnect();
  workerConnection.disconnect();
  await collab.close();
  const d = summarize(direct);
  const q = summarize(queued);
  log(
    `overhead: direct p50 ${round(d.p50)} ms, queued p50 ${round(q.p50)} ms → ${round(q.p50 - d.p50)} ms per operation`,
  );
  return { direct: d, queued: q };
}

/**
 * Client round trips per operation, one operation at a time (so that no two operations share a
 * write): Redis's `total_reads_processed` counts the requests it read from its clients, and a
 * client's round trip is one request (a pipeline, a MULTI … EXEC or ioredis's auto-pipelined
 * commands sent in one write are one). First enqueues alone (the queue paused, no worker yet),
 * then enqueue → the worker → its outcome at the Slack stand-in, one after the other; the
 * worker's share is the rest. Also counted: the commands Redis ran per operation outside scripts.
 */
async function roundTrips(ops: number, variant: 'bot' | 'floor') {
  const prefix = `br-${randomBytes(4).toString('hex')}`;
  const producer = connectRedis(redisServer.url, 'producer');
  await whenReady(producer, 10_000);
  const queue = createOperationsQueue(producer, settings(prefix));
  await queue.queue.pause();
  const reads = async () => {
    const info = await admin.info('stats');
    return Number(/total_reads_processed:(\d+)/.exec(info)?.[1] ?? 0);
  };
  const calls = async () => [...(await commandStats()).values()].reduce((a, b) => a + b, 0);
  let n = 0;
  const enqueueOne = async () => {
    const id = `${prefix}-${n++}`;
    await queue.enqueue(
      'resolvePost',
      { origin: { ...origin(0), responseUrl: slack.responseUrl(id) }, post: { id: postId } },
      { idempotencyKey: `rt-${randomBytes(6).toString('hex')}` },
    );
    return id;
  };
  // each INFO is one read and one command of its own
  const r0 = await reads();
  for (let i = 0; i < ops; i++) await enqueueOne();
  const enqueue = ((await reads()) - r0 - 1) / ops;
  await queue.queue.obliterate({ force: true });
  await queue.queue.resume();
  const child =
    variant === 'floor'
      ? await startFloorChild(workerEnv(prefix, 16))
      : await startWorkerChild(workerEnv(prefix, 16), RUNTIME);
  const one = async () => {
    const id = await enqueueOne();
    const path = `/response/${encodeURIComponent(id)}`;
    await slack.waitFor((call) => call.method === 'response_url' && call.path === path, {
      timeoutMs: 30_000,
    });
  };
  for (let i = 0; i < 20; i++) await one();
  await new Promise((r) => setTimeout(r, 100));
  const r1 = await reads();
  const c1 = await calls();
  for (let i = 0; i < ops; i++) await one();
  await new Promise((r) => setTimeout(r, 100));
  const r2 = await reads();
  const c2 = await calls();
  const worker = (r2 - r1 - 1) / ops - enqueue;
  const commands = (c2 - c1 - 1) / ops;
  await stopChild(child);
  await queue.queue.obliterate({ force: true }).catch(() => {});
  await queue.close();
  producer.disconnect();
  log(
    `${variant}: round trips per operation: enqueue ${round(enqueue, 2)}, worker ${round(worker, 2)}; commands per operation (enqueue and worker, incl. in scripts) ${round(commands, 2)}`,
  );
  return { enqueue, worker, commands };
}

try {
  if (values['trips-only']) {
    await roundTrips(200, 'bot');
    await roundTrips(200, 'floor');
  } else await full();
} finally {
  admin.disconnect();
  await emulator.close();
  await slack.close();
  await redisServer.stop();
}

async function full() {
  // Not counted: the emulator and the Slack stand-in in this process warm up (the JIT) on a run
  // of their own, so that the first measured run (the bot's) does not pay for it alone — its
  // driver spent 0.98 ms per operation against 0.56 ms in the same bot run later.
  log('warm-up run (not counted):');
  await throughput(1, CONCURRENCIES[0] ?? 16);
  const byConcurrency: Throughput[] = [];
  const floors: Throughput[] = [];
  for (const c of CONCURRENCIES) {
    const bot = await throughput(1, c);
    const floor = await throughput(1, c, 'floor');
    byConcurrency.push(bot);
    floors.push(floor);
    log(
      `concurrency ${c}: the worker does ${round((100 * bot.opsPerSecond) / floor.opsPerSecond, 0)} % of its ${FLOOR}`,
    );
  }
  const turns =
    ROUNDS > 0 ? await interleaved(16, ROUNDS, Math.max(100, Math.round(JOBS / ROUNDS))) : undefined;
  const scaling: Throughput[] = [];
  for (const p of PROCESSES) scaling.push(await throughput(p, 16));
  const over = await overhead();
  const trips = await roundTrips(200, 'bot');
  const floorTrips = await roundTrips(200, 'floor');

  const report = [
    `### Worker throughput, scaling, queue overhead, Redis commands — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `Machine: ${machine}. Runtime of the workers: ${RUNTIME === 'js' ? 'node dist/main.js (built)' : 'node --import tsx src/main.ts'}; Node flags of both, the bot's and the floor's: ${NODE_OPTIONS.length > 0 ? NODE_OPTIONS.join(' ') : 'none'}. Emulator (zero latency), Slack stand-in and the driver share this process; Redis ${binary} of the benchmark's own, no persistence.`,
    `Command: \`npm run bench:worker -- --jobs ${JOBS} --concurrency ${CONCURRENCIES.join(',')} --processes ${PROCESSES.join(',')} --runtime ${RUNTIME} --overhead ${OVERHEAD_OPS}${ROUNDS === 10 ? '' : ` --rounds ${ROUNDS}`}${NODE_OPTIONS.length > 0 ? ` --node-options='${NODE_OPTIONS.join(' ')}'` : ''}${values.floor === 'mark' ? ' --floor mark' : ''}\``,
    `Operation: resolvePost through the real processor (API call, step log, outcome to response_url).`,
    '',
    '| worker | worker processes | concurrency | jobs | failed | ops/s (all) | ops/s per process | enqueues/s | Redis cmds per enqueue (incl. in scripts) | Redis cmds per op in the worker (incl. in scripts) | worker RSS idle MB | worker RSS peak MB | CPU ms per op: worker / Redis / driver |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...[...byConcurrency, ...floors, ...scaling].map(
      (r) =>
        `| ${r.variant} | ${r.processes} | ${r.concurrency} | ${JOBS} | ${r.failed} | ${round(r.opsPerSecond, 0)} | ${round(r.perProcess, 0)} | ${round(r.enqueuePerSecond, 0)} | ${round(r.enqueueCommands.total, 2)} | ${round(r.workerCommands.total, 2)} | ${round(r.idleRssMb, 0)} | ${round(r.peakRssMb, 0)} | ${round(r.cpu.worker, 3)} / ${round(r.cpu.redis, 3)} / ${round(r.cpu.driver, 3)} |`,
    ),
    '',
    `The worker's share of its ${FLOOR} (same jobs, same concurrency, one process each): ${byConcurrency
      .map(
        (r, i) => `c${r.concurrency} ${round((100 * r.opsPerSecond) / (floors[i]?.opsPerSecond ?? 1), 0)} %`,
      )
      .join(', ')}; its CPU per operation against the floor's: ${byConcurrency
      .map((r, i) => `c${r.concurrency} ${round(r.cpu.worker / (floors[i]?.cpu.worker ?? 1), 2)}×`)
      .join(', ')}.`,
    ...(turns
      ? [
          '',
          `**Interleaved** (${turns.rounds} rounds of ${turns.jobs} operations each at concurrency 16, the bot's worker and the floor taking turns, every other round the floor first): the worker's share of its ${FLOOR}, median **${round(turns.share.median, 0)} %** (rounds: ${turns.share.each.map((x) => round(x, 0)).join(', ')}); its CPU per operation against the floor's, median ${round(turns.cpu.median, 2)}× (bot ${round(turns.cpuMs.bot, 3)} ms, floor ${round(turns.cpuMs.floor, 3)} ms per operation over all rounds).`,
        ]
      : []),
    '',
    `Commandstats per operation, worker phase at concurrency 16 (top): ${byConcurrency.find((r) => r.concurrency === 16)?.workerCommands.top ?? scaling[0]?.workerCommands.top ?? '–'}.`,
    `Commandstats per enqueue (top): ${byConcurrency[0]?.enqueueCommands.top ?? '–'}.`,
    '',
    `The bot's own Redis commands per operation in the worker, beyond what the floor's BullMQ needs (commandstats, incl. in scripts): ${byConcurrency
      .map(
        (r, i) =>
          `c${r.concurrency} ${round(r.workerCommands.total - (floors[i]?.workerCommands.total ?? 0), 2)}`,
      )
      .join(', ')}.`,
    '',
    `Client round trips per operation in the worker while the queue drained (Redis's total_reads_processed; commands that left in one write are one; the driver's polls of the queue's counts included): ${byConcurrency
      .map((r, i) => `c${r.concurrency} bot ${round(r.reads, 2)}, floor ${round(floors[i]?.reads ?? 0, 2)}`)
      .join('; ')}.`,
    '',
    `Client round trips per operation (Redis's total_reads_processed, 200 operations one at a time; a pipeline, MULTI or auto-pipelined batch is one): enqueue ${round(trips.enqueue, 2)} (the floor is 1); worker: bot ${round(trips.worker, 2)}, floor ${round(floorTrips.worker, 2)} — the bot's own ${round(trips.worker - floorTrips.worker, 2)}. Redis commands per operation one at a time (enqueue and worker, incl. in scripts): bot ${round(trips.commands, 2)}, floor ${round(floorTrips.commands, 2)}.`,
    '',
    `Queue overhead, one operation at a time (${OVERHEAD_OPS} each): direct client call p50 ${round(over.direct.p50)} / p95 ${round(over.direct.p95)} / p99 ${round(over.direct.p99)} ms; enqueue → worker → completed with the same call p50 ${round(over.queued.p50)} / p95 ${round(over.queued.p95)} / p99 ${round(over.queued.p99)} ms; overhead p50 ${round(over.queued.p50 - over.direct.p50)} ms.`,
  ].join('\n');
  log(`\n${report}\n`);
}
