/**
 * What an idle process costs: a worker (and a web process) with nothing queued and nothing to
 * poll, on a redis-server of the benchmark's own, against the emulator and the Slack stand-in.
 * An operator runs several workers that are idle most of the day: each one's CPU, its wake-ups
 * and its Redis commands are paid all day.
 *
 *   npm run bench:idle -- [--seconds 30] [--settle 5] [--runtime tsx|js]
 *
 * After `--settle` seconds of start-up, over `--seconds`: CPU time of each process (all its
 * threads) as a share of one core, its main thread's wake-ups per second (voluntary context
 * switches: each sleep of the event loop that something ended), and Redis commands per second
 * (INFO commandstats). One process at a time, the worker first.
 * Prints its report (date, machine, commit, command); BENCHMARKS.md is updated by hand.
 */
import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { startEmulator } from '../src/sandbox/emulator/index.ts';
import { findOnPath, startPrivateRedis } from '../src/sandbox/redis.ts';
import { startSlackStandIn } from '../src/sandbox/slack/index.ts';
import { connectRedis } from '../src/store/redis.ts';
import { commandCalls } from './lib/commandStats.ts';
import {
  botEnv,
  cpuMs,
  freePort,
  machineLine,
  parseRuntime,
  type Runtime,
  startChild,
  startWorkerChild,
  stopChild,
} from './lib/process.ts';
import { round } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    settle: { type: 'string', default: '5' },
    runtime: { type: 'string', default: 'js' },
  },
});
const SECONDS = Number(values.seconds);
const SETTLE_MS = Number(values.settle) * 1000;
const RUNTIME: Runtime = parseRuntime(values.runtime);
const log = (line: string) => process.stdout.write(`${line}\n`);

const binary = findOnPath('redis-server');
if (!binary) throw new Error('bench:idle needs redis-server on PATH');
const machine = await machineLine();
const redisServer = await startPrivateRedis(binary);
const admin = connectRedis(redisServer.url, 'producer');
const emulator = await startEmulator({ port: 0 });
const slack = await startSlackStandIn();

/** Voluntary context switches of a process's main thread so far. */
async function wakeUps(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const status = await readFile(`/proc/${pid}/task/${pid}/status`, 'utf8').catch(() => '');
  return Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
}

/** Redis commands so far, but for the INFO calls this benchmark makes to count them. */
async function redisCalls(): Promise<number> {
  let calls = 0;
  for (const [name, n] of commandCalls(await admin.info('commandstats'))) if (name !== 'info') calls += n;
  return calls;
}

interface Idle {
  role: string;
  cpuPercent: number;
  wakeUpsPerSecond: number;
  redisPerSecond: number;
}

function env(port: number): Record<string, string> {
  return botEnv(
    { slackUrl: slack.url, emulator, redisUrl: redisServer.url, prefix: `idle-${port}` },
    { PORT: String(port) },
  );
}

async function measure(role: 'worker' | 'web'): Promise<Idle> {
  const port = await freePort();
  const child: ChildProcess =
    role === 'worker'
      ? await startWorkerChild(env(port), RUNTIME)
      : await startChild('src/main.ts', ['--role=web'], env(port), port, RUNTIME);
  try {
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const [cpu0, wake0, calls0] = [await cpuMs(child.pid), await wakeUps(child.pid), await redisCalls()];
    const started = performance.now();
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    const [cpu1, wake1, calls1] = [await cpuMs(child.pid), await wakeUps(child.pid), await redisCalls()];
    const seconds = (performance.now() - started) / 1000;
    return {
      role,
      cpuPercent: ((cpu1 ?? 0) - (cpu0 ?? 0)) / (seconds * 10),
      wakeUpsPerSecond: (wake1 - wake0) / seconds,
      redisPerSecond: (calls1 - calls0) / seconds,
    };
  } finally {
    await stopChild(child);
  }
}

const rows: Idle[] = [];
try {
  for (const role of ['worker', 'web'] as const) {
    const row = await measure(role);
    rows.push(row);
    log(
      `${role}: ${round(row.cpuPercent, 2)} % of a core, ${round(row.wakeUpsPerSecond, 0)} wake-ups/s, ${round(row.redisPerSecond, 1)} Redis commands/s`,
    );
  }
} finally {
  admin.disconnect();
  await Promise.all([emulator.close(), slack.close()]);
  await redisServer.stop();
}

const report = [
  `### Idle processes — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  '',
  `Machine: ${machine}. Runtime: ${RUNTIME === 'js' ? 'node dist/main.js (built)' : 'node --import tsx src/main.ts'}; nothing queued, nothing followed; Redis of the benchmark's own.`,
  `Command: \`npm run bench:idle -- --seconds ${SECONDS} --settle ${SETTLE_MS / 1000} --runtime ${RUNTIME}\``,
  '',
  '| role | CPU, % of one core | main thread wake-ups/s | Redis commands/s |',
  '|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.role} | ${round(r.cpuPercent, 2)} | ${round(r.wakeUpsPerSecond, 0)} | ${round(r.redisPerSecond, 1)} |`,
  ),
  '',
].join('\n');
log(`\n${report}`);
