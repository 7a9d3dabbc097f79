/**
 * Fair shares between workspaces (src/operations/fairness.ts): a flood of slash commands from
 * one workspace (A), then one command from another (B), both workspaces on one service host.
 * Prints B's time to outcome, A's (median and last), how many of A's operations started while
 * B's waited, and the bound the queue promises: at most the allowance of A's operations plus
 * those already running when B's was queued (the workers' concurrency).
 *
 *   npm run bench:fairness -- [--flood 400] [--command 'post #engineering Flood | text'] [--latency 50]
 *                             [--rate-limit on|off] [--check]
 *
 * The bot runs in-process (role all, one process) on a redis-server of the benchmark's own,
 * against the emulator (`--rate-limit on`: the service's real 500 requests per 30 s per client
 * address, which the bot's request budget shares between the workspaces) and the Slack
 * stand-in. A's commands are sent 25 at a time, as fast as they are acked; B's right after the
 * last of them is acked, when A's flood is all queued. Times run from a command's sending to its
 * outcome at its response_url; the start order comes from the queue's events.
 * `--check` exits 1 when more of A's operations started while B's waited than the bound: CI runs a
 * short one (the check is on counts, never on times).
 */
import { parseArgs } from 'node:util';
import { QueueEvents } from 'bullmq';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { DEFAULT_FAIRNESS } from '../src/operations/fairness.ts';
import { startBot } from '../src/runtime.ts';
import { SERVICE_RATE_LIMIT, startEmulator } from '../src/sandbox/emulator/index.ts';
import { findOnPath, startPrivateRedis } from '../src/sandbox/redis.ts';
import { signSlackRequest, slashCommandBody, startSlackStandIn } from '../src/sandbox/slack/index.ts';
import { connectRedis } from '../src/store/redis.ts';
import { botEnv, machineLine } from './lib/process.ts';
import { round, summarize } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    flood: { type: 'string', default: '400' },
    command: { type: 'string', default: 'post #engineering Flood | one post of the flood' },
    latency: { type: 'string', default: '50' },
    'rate-limit': { type: 'string', default: 'on' },
    check: { type: 'boolean', default: false },
  },
});
const FLOOD = Number(values.flood);
const LATENCY = Number(values.latency);
const RATE_LIMITED = values['rate-limit'] !== 'off';
const IN_FLIGHT = 25;
const TEAM_A = 'T_FLOOD';
const TEAM_B = 'T_QUIET';
const log = (line: string) => process.stdout.write(`${line}\n`);

const binary = findOnPath('redis-server');
if (!binary) throw new Error('bench:fairness needs redis-server on PATH');
const machine = await machineLine();
const redis = await startPrivateRedis(binary);
const emulator = await startEmulator({ ...(RATE_LIMITED ? { rateLimit: SERVICE_RATE_LIMIT } : {}) });
emulator.faults.setLatency(LATENCY);
const slack = await startSlackStandIn();
const prefix = 'bench-fairness';
const config = loadConfig(
  botEnv(
    { slackUrl: slack.url, emulator, redisUrl: redis.url, prefix },
    { ROLE: 'all', PORT: '0', LOG_LEVEL: 'silent', NODE_ENV: 'test' },
  ),
);
const bot = await startBot(config, createLogger({ level: 'silent' }));
const eventsConnection = connectRedis(redis.url, 'worker');
const events = new QueueEvents('operations', { connection: eventsConnection, prefix });
await events.waitUntilReady();

/** the queue's events, in its stream's order: a job going in line (or behind it), a job starting */
const seen: Array<{ event: 'waiting' | 'active'; jobId: string }> = [];
events.on('waiting', ({ jobId }) => seen.push({ event: 'waiting', jobId }));
events.on('active', ({ jobId }) => seen.push({ event: 'active', jobId }));
/** response_url id → when its outcome arrived */
const outcomes = new Map<string, number>();
let onOutcome = () => {};
slack.onCall((call) => {
  if (call.method !== 'response_url') return;
  const id = String(call.path ?? '').slice('/response/'.length);
  if (!outcomes.has(id)) outcomes.set(id, performance.now());
  onOutcome();
});

const sentAt = new Map<string, number>();
/** Sends one signed command of `team`; answers its response_url id once acked. */
async function command(team: string, n: number): Promise<string> {
  const id = `${team}-${n}`;
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

try {
  const floodIds: string[] = [];
  for (let from = 0; from < FLOOD; from += IN_FLIGHT) {
    const batch = Array.from({ length: Math.min(IN_FLIGHT, FLOOD - from) }, (_, i) =>
      command(TEAM_A, from + i),
    );
    floodIds.push(...(await Promise.all(batch)));
  }
  const quietId = await command(TEAM_B, 0);
  const all = [...floodIds, quietId];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`outcomes missing after 10 minutes`)), 600_000);
    onOutcome = () => {
      if (all.every((id) => outcomes.has(id))) {
        clearTimeout(timer);
        resolve();
      }
    };
    onOutcome();
  });

  const waitOf = (id: string) => outcomes.get(id)! - sentAt.get(id)!;
  const teamOfJob = async (jobId: string) =>
    ((await bot.queue.queue.getJob(jobId))?.data as { origin?: { teamId?: string } } | undefined)?.origin
      ?.teamId;
  const teams = await Promise.all(seen.map(({ jobId }) => teamOfJob(jobId)));
  const quietQueued = seen.findIndex((e, i) => e.event === 'waiting' && teams[i] === TEAM_B);
  const quietStarted = seen.findIndex((e, i) => e.event === 'active' && teams[i] === TEAM_B);
  const startedBetween = (from: number, to: number) =>
    seen.slice(from, to).filter((e, i) => e.event === 'active' && teams[from + i] === TEAM_A).length;
  /** A's operations that started while B's waited: what the bound is about */
  const floodBefore = startedBetween(quietQueued + 1, quietStarted);
  const floodEarlier = startedBetween(0, quietQueued);
  const bound = DEFAULT_FAIRNESS.allowance + config.worker.concurrency;
  const floodWaits = summarize(floodIds.map(waitOf));

  log(`bench:fairness — ${new Date().toISOString()}`);
  log(`machine: ${machine}`);
  log(
    `flood ${FLOOD} × \`/collab ${values.command}\` from ${TEAM_A}, then one from ${TEAM_B}; one service host, ` +
      `latency ${LATENCY} ms, service rate limit ${RATE_LIMITED ? '500 per 30 s' : 'off'}; ` +
      `one bot process, WORKER_CONCURRENCY ${config.worker.concurrency}, allowance ${DEFAULT_FAIRNESS.allowance} per ${DEFAULT_FAIRNESS.windowMs / 1000} s`,
  );
  log(`B's time to outcome: ${round(waitOf(quietId) / 1000)} s`);
  log(
    `A's time to outcome: median ${round(floodWaits.p50 / 1000)} s, p95 ${round(floodWaits.p95 / 1000)} s, last ${round(floodWaits.max / 1000)} s`,
  );
  log(`A's operations started before B's was queued: ${floodEarlier} of ${FLOOD}`);
  log(`A's operations started while B's waited: ${floodBefore} (bound: allowance + concurrency = ${bound})`);
  if (values.check && (quietQueued < 0 || quietStarted < 0 || floodBefore > bound)) {
    log(`check failed: ${floodBefore} of A's operations started while B's waited, more than ${bound}`);
    process.exitCode = 1;
  }
} finally {
  await events.close();
  eventsConnection.disconnect();
  await bot.stop();
  await emulator.close();
  await slack.close();
  await redis.stop();
}
// Clients of the stand-in and the emulator may keep sockets alive a while: the run is over.
process.exit(process.exitCode ?? 0);
