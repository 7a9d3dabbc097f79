/**
 * Fair shares between workspaces (src/operations/fairness.ts): a flood of slash commands from one
 * workspace (A), then one command from another (B), both workspaces on one service host. Runs the
 * same flood twice in one run, fair shares off (`QUEUE_FAIR_SHARE=0`) and on (the default 20), and
 * prints for each: B's time to outcome, A's (median, p95, last), and how many of A's operations
 * overtook B's (started after B's was queued and before it started) against the bound: at most
 * the fair share (twice it when the flood straddles two of its one-minute windows).
 *
 *   npm run bench:fairness -- [--flood 400] [--command 'post #engineering Flood | text']
 *                             [--latency 50] [--rate-limit on|off] [--fair-share 20] [--check]
 *
 * The bot runs in-process (role all, one process, single-workspace mode: the two team ids share
 * one service key and host) on a redis-server of the benchmark's own, against the emulator
 * (`--rate-limit on`: the service's real 500 requests per 30 s per client address, which the
 * bot's request budget shares between the workspaces; the default flood of posts, two requests
 * each, goes past it, and the second run waits a window for the first one's requests to age out)
 * and the Slack stand-in. A's commands are
 * sent 25 at a time, each batch as soon as the last is acked; B's right after the last of A's
 * is acked. Times run from a command's sending to its outcome at its response_url; the order
 * operations started in is the queue's (`active` events), and whether one of A's had started
 * when B's was queued is read from the jobs (`processedOn` against B's `timestamp`).
 * `--check` exits 1 when, with fair shares on, more of A's operations overtook B's than the
 * bound: CI runs a short one (the check is on counts, never on times).
 */
import { parseArgs } from 'node:util';
import { type Job, QueueEvents } from 'bullmq';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { type RunningBot, startBot } from '../src/runtime.ts';
import { type Emulator, SERVICE_RATE_LIMIT, startEmulator } from '../src/sandbox/emulator/index.ts';
import { findOnPath, startPrivateRedis } from '../src/sandbox/redis.ts';
import {
  type SlackStandIn,
  signSlackRequest,
  slashCommandBody,
  startSlackStandIn,
} from '../src/sandbox/slack/index.ts';
import { connectRedis } from '../src/store/redis.ts';
import { botEnv, machineLine } from './lib/process.ts';
import { round, summarize } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    flood: { type: 'string', default: '400' },
    command: { type: 'string', default: 'post #engineering Flood | one post of the flood' },
    latency: { type: 'string', default: '50' },
    'rate-limit': { type: 'string', default: 'on' },
    'fair-share': { type: 'string', default: '20' },
    check: { type: 'boolean', default: false },
  },
});
const FLOOD = Number(values.flood);
const LATENCY = Number(values.latency);
const FAIR_SHARE = Number(values['fair-share']);
const RATE_LIMITED = values['rate-limit'] !== 'off';
const IN_FLIGHT = 25;
const TEAM_A = 'T_FLOOD';
const TEAM_B = 'T_QUIET';
const log = (line: string) => process.stdout.write(`${line}\n`);

interface RunResult {
  fairShare: number;
  concurrency: number;
  quietWaitMs: number;
  floodWaits: ReturnType<typeof summarize>;
  /** A's operations that started before B's, of them those that were not running yet when B's was queued */
  startedBefore: number;
  overtook: number;
}

/** One flood and one quiet command against a fresh bot (its own queue prefix) with `fairShare`. */
async function run(
  world: { redisUrl: string; emulator: Emulator; slack: SlackStandIn },
  fairShare: number,
): Promise<RunResult> {
  const prefix = `bench-fairness-${fairShare}-${Date.now()}`;
  const config = loadConfig(
    botEnv(
      { slackUrl: world.slack.url, emulator: world.emulator, redisUrl: world.redisUrl, prefix },
      { ROLE: 'all', PORT: '0', LOG_LEVEL: 'silent', NODE_ENV: 'test', QUEUE_FAIR_SHARE: String(fairShare) },
    ),
  );
  const bot = await startBot(config, createLogger({ level: 'silent' }));
  const connection = connectRedis(world.redisUrl, 'worker');
  const events = new QueueEvents('operations', { connection, prefix });
  await events.waitUntilReady();
  const started: string[] = [];
  events.on('active', ({ jobId }) => started.push(jobId));
  const outcomes = new Map<string, number>();
  let onOutcome = () => {};
  const stopListening = world.slack.onCall((call) => {
    if (call.method !== 'response_url') return;
    const id = decodeURIComponent(String(call.path ?? '').slice('/response/'.length));
    if (!outcomes.has(id)) outcomes.set(id, performance.now());
    onOutcome();
  });
  try {
    const sentAt = new Map<string, number>();
    const send = (team: string, n: number) => command(bot, world.slack, team, n, sentAt);
    const floodIds: string[] = [];
    for (let from = 0; from < FLOOD; from += IN_FLIGHT) {
      const batch = Array.from({ length: Math.min(IN_FLIGHT, FLOOD - from) }, (_, i) =>
        send(TEAM_A, from + i),
      );
      floodIds.push(...(await Promise.all(batch)));
    }
    const quietId = await send(TEAM_B, 0);
    await allTold([...floodIds, quietId], outcomes, (listener) => {
      onOutcome = listener;
    });
    const waitOf = (id: string) => outcomes.get(id)! - sentAt.get(id)!;
    const order = await startOrder(bot, started);
    return {
      fairShare,
      concurrency: config.worker.concurrency,
      quietWaitMs: waitOf(quietId),
      floodWaits: summarize(floodIds.map(waitOf)),
      ...overtaking(order),
    };
  } finally {
    stopListening();
    await events.close();
    connection.disconnect();
    await bot.stop();
  }
}

/** Sends one signed command of `team`; answers its response_url id once acked. */
async function command(
  bot: RunningBot,
  slack: SlackStandIn,
  team: string,
  n: number,
  sentAt: Map<string, number>,
): Promise<string> {
  const id = `${team}-${n}-${Math.random().toString(36).slice(2, 8)}`;
  const body = slashCommandBody({
    command: '/collab',
    text: values.command,
    user_id: `U_${n}`,
    channel_id: 'C_GENERAL',
    team_id: team,
    response_url: slack.responseUrl(id),
    trigger_id: `trigger-${id}`,
  });
  sentAt.set(id, performance.now());
  const answer = await fetch(`http://127.0.0.1:${bot.port}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...signSlackRequest('bench-secret', body),
    },
    body,
  });
  if (answer.status !== 200) throw new Error(`command ${id} answered ${answer.status}`);
  await answer.text();
  return id;
}

/** Resolves once every id has its outcome (`listen` is handed the check to run on each one). */
function allTold(ids: string[], outcomes: Map<string, number>, listen: (check: () => void) => void) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('outcomes missing after 10 minutes')), 600_000);
    const check = () => {
      if (ids.every((id) => outcomes.has(id))) {
        clearTimeout(timer);
        resolve();
      }
    };
    listen(check);
    check();
  });
}

/** The jobs in the order they started (first attempts), with their team, queued and started times. */
async function startOrder(bot: RunningBot, started: string[]) {
  const seen = new Set<string>();
  const jobs: Job[] = [];
  for (const id of started) {
    if (seen.has(id)) continue;
    seen.add(id);
    const job = await bot.queue.queue.getJob(id);
    if (job) jobs.push(job);
  }
  return jobs.map((job) => ({
    team: (job.data as { origin?: { teamId?: string } }).origin?.teamId,
    queuedAt: job.timestamp,
    startedAt: job.processedOn ?? 0,
  }));
}

/** How many of A's operations started before B's, and how many of those overtook it. */
function overtaking(order: Awaited<ReturnType<typeof startOrder>>) {
  const at = order.findIndex((job) => job.team === TEAM_B);
  if (at < 0) throw new Error("B's operation never started");
  const quiet = order[at]!;
  const before = order.slice(0, at).filter((job) => job.team === TEAM_A);
  return {
    startedBefore: before.length,
    overtook: before.filter((job) => job.startedAt >= quiet.queuedAt).length,
  };
}

const binary = findOnPath('redis-server');
if (!binary) throw new Error('bench:fairness needs redis-server on PATH');
const machine = await machineLine();
const redis = await startPrivateRedis(binary);
const emulator = await startEmulator(RATE_LIMITED ? { rateLimit: SERVICE_RATE_LIMIT } : {});
emulator.faults.setLatency(LATENCY);
const slack = await startSlackStandIn();
try {
  const world = { redisUrl: redis.url, emulator, slack };
  const off = await run(world, 0);
  // The service's budget window is shared: let the first run's requests age out of it.
  if (RATE_LIMITED) await new Promise((resolve) => setTimeout(resolve, SERVICE_RATE_LIMIT.windowMs));
  const on = await run(world, FAIR_SHARE);
  log(`bench:fairness — ${new Date().toISOString()}`);
  log(`machine: ${machine}`);
  log(
    `flood of ${FLOOD} × \`/collab ${values.command}\` from ${TEAM_A}, then one from ${TEAM_B}; one service host, ` +
      `latency ${LATENCY} ms, service rate limit ${RATE_LIMITED ? '500 per 30 s' : 'off'}; ` +
      `one bot process, WORKER_CONCURRENCY ${on.concurrency}`,
  );
  log('');
  log(
    "| QUEUE_FAIR_SHARE | B's time to outcome | A's median | A's p95 | A's last | A's started before B's | of them overtook B (bound) |",
  );
  log('|---|---|---|---|---|---|---|');
  for (const r of [off, on]) {
    const s = (ms: number) => `${round(ms / 1000)} s`;
    const bound = r.fairShare > 0 ? `${r.fairShare}, at most ${2 * r.fairShare}` : 'none';
    log(
      `| ${r.fairShare === 0 ? '0 (off)' : r.fairShare} | ${s(r.quietWaitMs)} | ${s(r.floodWaits.p50)} | ${s(r.floodWaits.p95)} | ${s(r.floodWaits.max)} | ${r.startedBefore} | ${r.overtook} (${bound}) |`,
    );
  }
  if (off.overtook <= 2 * on.fairShare) {
    log(`note: without fair shares only ${off.overtook} overtook B's: the flood made little backlog here`);
  }
  if (values.check && on.overtook > 2 * on.fairShare) {
    log(`check failed: ${on.overtook} of A's operations overtook B's, more than ${2 * on.fairShare}`);
    process.exitCode = 1;
  }
} finally {
  await emulator.close();
  await slack.close();
  await redis.stop();
}
