/**
 * Polling at internet scale, on a fake clock (bench/lib/simulation.ts): W workspaces × F followed
 * channels and T active mirrored threads each, through the bot's poll schedule, request budget and
 * client, against the emulator with the service's rate limit (500 per 30 s per client address),
 * on a redis-server of the benchmark's own (a free port, nothing kept on disk).
 *
 *   npm run bench:simulate -- [--workspaces 1000] [--feeds 5] [--threads 2] [--hours auto]
 *                             [--people 1] [--join-minutes 0]
 *
 * Prints (BENCHMARKS.md is updated by hand): requests per 30 s window (never over the limit), people's
 * wait p99, the effective polling interval per workspace (min / max / ratio), Redis memory per
 * poller, and the schedule's overhead per poll (Redis commands, CPU), beside what the queue adds
 * per poll (a BullMQ job, measured here) and what one job scheduler per poller cost before.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Queue, Worker } from 'bullmq';
import { pollJob } from '../src/jobs/pollDispatch.ts';
import { DEFAULT_POLLING } from '../src/jobs/polling.ts';
import { findOnPath, startPrivateRedis } from '../src/sandbox/redis.ts';
import { connectRedis, whenReady } from '../src/store/redis.ts';
import { machineLine } from './lib/process.ts';
import { simulate, storeMemory } from './lib/simulation.ts';

const { values } = parseArgs({
  options: {
    workspaces: { type: 'string', default: '1000' },
    feeds: { type: 'string', default: '5' },
    threads: { type: 'string', default: '2' },
    /** simulated hours; auto: the backlog of the start plus three stretched feed intervals */
    hours: { type: 'string', default: 'auto' },
    people: { type: 'string', default: '1' },
    'join-minutes': { type: 'string', default: '0' },
  },
});
const W = Number(values.workspaces);
const F = Number(values.feeds);
const T = Number(values.threads);
const LIMIT = 500;
const WINDOW = 30_000;
const RESERVE = 100;
const FEED_MS = DEFAULT_POLLING.feedIntervalMs;
const THREAD_MS = DEFAULT_POLLING.threadActiveMs;
const log = (line: string) => process.stdout.write(`${line}\n`);

// The stretch to expect: polls asked for per window over the background lane.
const asked = W * (F * (WINDOW / FEED_MS) + T * (WINDOW / THREAD_MS));
const expectStretch = Math.max(1, asked / (LIMIT - RESERVE - Number(values.people) * 30));
const stretchedFeedMs = FEED_MS * expectStretch;
const hours =
  values.hours === 'auto' ? Math.max(0.5, (4 * stretchedFeedMs) / 3_600_000) : Number(values.hours);
// The first turns of pollers added at once are spread over one stretched interval: measured after it.
const measureFromMs = Math.min(hours * 3_600_000 * 0.5, 1.2 * stretchedFeedMs);

const binary = findOnPath('redis-server');
if (!binary) throw new Error('bench:simulate needs redis-server on PATH');
const machine = await machineLine();
const server = await startPrivateRedis(binary);
const redis = connectRedis(server.url, 'worker');
await whenReady(redis, 10_000);
const prefix = `sim-${randomBytes(4).toString('hex')}`;

try {
  log(`simulate: ${W} workspaces × ${F} feeds + ${T} threads, ${hours.toFixed(1)} h simulated`);
  log(
    `  expected stretch ≈ ${expectStretch.toFixed(1)}; intervals measured after ${(measureFromMs / 3_600_000).toFixed(1)} h`,
  );
  const r = await simulate({
    redis,
    prefix,
    workspaces: W,
    feeds: F,
    threads: T,
    feedEveryMs: FEED_MS,
    threadEveryMs: THREAD_MS,
    limit: LIMIT,
    windowMs: WINDOW,
    personReserve: RESERVE,
    durationMs: hours * 3_600_000,
    measureFromMs,
    personPerSecond: Number(values.people),
    joinOverMs: Number(values['join-minutes']) * 60_000,
    progress: log,
  });

  // What the queue adds per dispatched poll: one BullMQ job (deduplicated), enqueued and run.
  const queueCost = await bullmqPerPoll(2000);
  // What the previous design kept per poller: one BullMQ job scheduler (and its next delayed job).
  const schedulerBytes = await schedulerMemory(2000);
  // What the store keeps per followed channel and per mirrored thread besides the poller.
  const kept = await storeMemory(redis, `${prefix}-store`, Math.min(W, 2000), F, T);
  const perWorkspace =
    F * (kept.perFeed + r.schedule.usedMemoryDelta / r.pollers) +
    T * (kept.perThread + r.schedule.usedMemoryDelta / r.pollers);

  const min = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;
  const rows = [
    `| workspaces × (feeds + threads) | ${W} × (${F} + ${T}) = ${r.pollers} pollers |`,
    `| simulated / wall time | ${(r.simulatedMs / 3_600_000).toFixed(1)} h / ${(r.wallMs / 1000).toFixed(0)} s |`,
    `| polls / requests | ${r.polls} / ${r.requests} |`,
    `| requests per 30 s: max fixed window / max sliding window (limit ${LIMIT}) | ${r.maxPerWindow} / ${r.maxPerSlidingWindow} |`,
    `| 429 answers | ${r.refused429} |`,
    `| stretch (expected ≈ ${expectStretch.toFixed(1)}) | ${r.stretch.toFixed(2)} |`,
    `| feed interval per workspace: min / mean / max (ratio), ${r.feedInterval.workspaces} workspaces | ${min(r.feedInterval.min)} / ${min(r.feedInterval.mean)} / ${min(r.feedInterval.max)} (${r.feedInterval.ratio.toFixed(3)}) |`,
    `| thread interval per workspace: min / mean / max (ratio) | ${min(r.threadInterval.min)} / ${min(r.threadInterval.mean)} / ${min(r.threadInterval.max)} (${r.threadInterval.ratio.toFixed(3)}) |`,
    `| max/min per poller: feeds / threads | ${r.pollerRatio.feed.toFixed(3)} / ${r.pollerRatio.thread.toFixed(3)} |`,
    `| people's operations: count, wait p50 / p99 / max | ${r.person.count}, ${r.person.p50} / ${r.person.p99} / ${r.person.max} ms |`,
    `| polls the budget delayed / turns skipped while the last poll waited | ${r.delayedPolls} / ${r.skippedBusy} |`,
    `| Redis per poller (schedule keys, MEMORY USAGE) / used_memory delta per poller | ${r.schedule.bytesPerPoller.toFixed(0)} B / ${(r.schedule.usedMemoryDelta / r.pollers).toFixed(0)} B |`,
    `| previous design: one job scheduler per poller | ${schedulerBytes.toFixed(0)} B per poller |`,
    `| store per followed channel (link, feed state) / per mirrored thread (origin, mirror state) | ${kept.perFeed.toFixed(0)} B / ${kept.perThread.toFixed(0)} B |`,
    `| per workspace (${F} channels + ${T} threads, store and pollers) | ${(perWorkspace / 1024).toFixed(1)} KiB |`,
    `| dispatch: calls, ms per call, ms per poll | ${r.dispatch.calls}, ${r.dispatch.msPerCall.toFixed(3)}, ${r.dispatch.msPerPoll.toFixed(3)} |`,
    `| Redis commands per poll, schedule + budget (scripts' inner commands counted) | ${r.redisCommands.perPoll.toFixed(1)} (${r.redisCommands.top}) |`,
    `| + the queue per poll (one BullMQ job, enqueue and run) | ${queueCost.commands.toFixed(1)} commands |`,
    `| Redis CPU per poll / simulation process CPU per poll (client, emulator, fake clock) | ${r.redisCpuMsPerPoll.toFixed(3)} ms / ${r.simCpuMsPerPoll.toFixed(3)} ms |`,
  ];
  const argv = process.argv.slice(2).join(' ');
  log(
    [
      '',
      `### Polling simulation — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      '',
      `\`npm run bench:simulate${argv ? ` -- ${argv}` : ''}\` — ${machine}`,
      '',
      '| | |',
      '|---|---|',
      ...rows,
    ].join('\n'),
  );
  const ok =
    r.maxPerSlidingWindow <= LIMIT &&
    r.refused429 === 0 &&
    r.feedInterval.ratio <= 1.2 &&
    r.threadInterval.ratio <= 1.2;
  log(`\ninvariants: ${ok ? 'held' : 'BROKEN'}`);
  if (!ok) process.exitCode = 1;
} finally {
  redis.disconnect();
  await server.stop();
}

async function bullmqPerPoll(n: number): Promise<{ commands: number }> {
  const qPrefix = `${prefix}-queue`;
  const queue = new Queue('operations', { connection: redis, prefix: qPrefix });
  const before = await calls();
  await queue.addBulk(
    Array.from({ length: n }, (_, i) =>
      pollJob({
        id: `T${i}-feed-C${i}`,
        operation: 'pollFeed',
        data: { teamId: `T${i}`, slackChannel: `C${i}` },
      }),
    ),
  );
  let done = 0;
  const connection = redis.duplicate();
  const finished = new Promise<void>((resolve) => {
    const worker = new Worker('operations', async () => {}, { connection, prefix: qPrefix, concurrency: 16 });
    worker.on('completed', () => {
      done++;
      if (done === n) void worker.close().then(() => resolve());
    });
  });
  await finished;
  connection.disconnect();
  const after = await calls();
  await queue.close();
  return { commands: (after - before) / n };
}

async function schedulerMemory(n: number): Promise<number> {
  const qPrefix = `${prefix}-schedulers`;
  const queue = new Queue('operations', { connection: redis, prefix: qPrefix });
  const before = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]);
  for (let i = 0; i < n; i++) {
    await queue.upsertJobScheduler(
      `T${String(i).padStart(6, '0')}-feed-C0T${String(i).padStart(6, '0')}`,
      { every: FEED_MS },
      {
        name: 'pollFeed',
        data: { teamId: `T${i}`, slackChannel: `C${i}` },
        opts: {
          attempts: 4,
          backoff: { type: 'exponential', delay: 2000, jitter: 0.5 },
          removeOnComplete: { count: 100 },
          removeOnFail: { count: 100 },
        },
      },
    );
  }
  const after = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]);
  await queue.close();
  return (after - before) / n;
}

async function calls(): Promise<number> {
  const text = await redis.info('commandstats');
  let total = 0;
  for (const m of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) if (m[1] !== 'info') total += Number(m[2]);
  return total;
}
