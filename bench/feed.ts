/**
 * What a followed channel costs the collaboration API: requests per poll of a quiet channel with
 * no open carded posts (target: exactly 1), of a quiet channel with N open carded posts (target:
 * 1 + min(N, FEED_RECHECK_BATCH), the re-reads that notice resolutions made in the service), of a
 * channel with one new post per poll, and per scheduler tick with one and with two workers on the
 * same Redis (a tick runs on exactly one worker).
 *
 *   npm run bench:feed -- [--polls 100] [--ticks 50] [--every 100] [--carded 5]
 *
 * The bot runs in-process (worker role) against the emulator and the Slack stand-in; polls are
 * `pollFeed` jobs enqueued one after the other, ticks come from the feed's real job scheduler
 * with a short interval. Every request the emulator receives is counted. Prints its report
 * (date, machine, commit, command); BENCHMARKS.md is updated by hand.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { type Job, QueueEvents } from 'bullmq';
import { loadConfig } from '../src/config.ts';
import { feedSchedulerId } from '../src/jobs/feeds.ts';
import { FEED_RECHECK_BATCH } from '../src/jobs/polling.ts';
import { createLogger } from '../src/logger.ts';
import { type RunningBot, startBot } from '../src/runtime.ts';
import { type Emulator, startEmulator } from '../src/sandbox/emulator/index.ts';
import { startSlackStandIn } from '../src/sandbox/slack/index.ts';
import { connectRedis, deleteKeys, whenReady } from '../src/store/redis.ts';
import { botEnv, machineLine } from './lib/process.ts';
import { round, type Summary, summarize } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    polls: { type: 'string', default: '100' },
    ticks: { type: 'string', default: '50' },
    every: { type: 'string', default: '100' },
    carded: { type: 'string', default: '5' },
  },
});
const polls = Number(values.polls);
const ticks = Number(values.ticks);
const everyMs = Number(values.every);
const carded = Number(values.carded);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TEAM = 'T_LOCAL';
const SLACK_CHANNEL = 'C_BENCH_FEED';

interface Row {
  scenario: string;
  polls: number;
  /** requests the emulator received during the scenario */
  total: number;
  /** per poll (ticks: the requests that arrived while the tick ran) */
  requests: number[];
  slackCalls: number;
  durations: Summary;
}

function env(prefix: string, emulator: Emulator, slackUrl: string): Record<string, string> {
  return botEnv(
    { slackUrl, emulator, redisUrl: REDIS_URL, prefix },
    {
      ROLE: 'worker',
      PORT: '0',
      LOG_LEVEL: 'silent',
      FEED_POLL_INTERVAL_MS: String(24 * 3600_000),
    },
  );
}

async function main() {
  const emulator = await startEmulator();
  const slack = await startSlackStandIn();
  const prefix = `bench-feed-${randomBytes(4).toString('hex')}`;
  const config = loadConfig(env(prefix, emulator, slack.url));
  const logger = createLogger({ level: 'silent' });
  const bot = await startBot(config, logger);
  await whenReady(bot.store.redis, 10_000);
  const eventsConnection = connectRedis(REDIS_URL, 'worker');
  const events = new QueueEvents('operations', { connection: eventsConnection, prefix });
  await events.waitUntilReady();
  const org = emulator.org();
  const channel = [...org.channels.values()].find((c) => c.name === 'engineering');
  const author = [...org.members.values()].find((m) => !m.is_deactivated);
  if (!channel || !author) throw new Error('the emulator has no seed');
  const rows: Row[] = [];

  try {
    await bot.store.links.set(TEAM, SLACK_CHANNEL, {
      channelId: channel.id,
      channelName: channel.name,
      bridgeReplies: false,
      linkedBy: 'U_ADA',
      linkedAt: new Date().toISOString(),
    });
    await settle(bot, events, 'followChannel', {
      origin: {
        teamId: TEAM,
        userId: 'U_ADA',
        slackChannel: SLACK_CHANNEL,
        receivedAt: Date.now(),
        source: 'command',
      },
    });
    // The scheduler's immediate first tick, then nothing for a day: polls below are ours alone.
    await waitForIdle(bot);

    rows.push(
      await pollRun(
        bot,
        events,
        emulator,
        slack.calls,
        'quiet channel, no open carded posts, enqueued polls',
        () => {},
      ),
    );
    // N open posts made in the service, carded by one poll (not counted): the feed now watches them.
    for (let i = 0; i < carded; i++) {
      org.actAs(author.id).createPost({ channel_id: channel.id, title: `Open ${i}`, content_markdown: 'x' });
    }
    await settle(bot, events, 'pollFeed', { teamId: TEAM, slackChannel: SLACK_CHANNEL });
    rows.push(
      await pollRun(
        bot,
        events,
        emulator,
        slack.calls,
        `quiet channel, ${carded} open carded posts, enqueued polls`,
        () => {},
      ),
    );
    rows.push(
      await pollRun(bot, events, emulator, slack.calls, 'one new post per poll, enqueued polls', (i) => {
        org
          .actAs(author.id)
          .createPost({ channel_id: channel.id, title: `Bench ${i}`, content_markdown: 'x' });
      }),
    );
    const watched = (await bot.store.feeds.watched(TEAM, SLACK_CHANNEL)).size;
    rows.push(
      await tickRun(
        bot,
        events,
        emulator,
        slack.calls,
        `quiet channel, ${watched} watched posts, scheduler ticks, 1 worker`,
      ),
    );
    const second = await startBot(loadConfig(env(prefix, emulator, slack.url)), logger);
    try {
      rows.push(
        await tickRun(
          bot,
          events,
          emulator,
          slack.calls,
          `quiet channel, ${watched} watched posts, scheduler ticks, 2 workers`,
        ),
      );
    } finally {
      await second.stop();
    }
  } finally {
    await bot.schedules.removeByPrefix(`${TEAM}-`).catch(() => 0);
    await events.close();
    eventsConnection.disconnect();
    await bot.queue.queue.obliterate({ force: true }).catch(() => {});
    await bot.stop();
    await wipe(prefix);
    await emulator.close();
    await slack.close();
  }

  const report = render(rows, await machineLine());
  process.stdout.write(`\n${report}\n`);
}

let enqueued = 0;
async function settle(
  bot: RunningBot,
  events: QueueEvents,
  operation: 'followChannel' | 'pollFeed',
  data: object,
) {
  enqueued += 1;
  const queued = await bot.queue.enqueue(operation, data as never, {
    idempotencyKey: `bench-${process.pid}-${enqueued}-${randomBytes(4).toString('hex')}`,
  });
  const job = await bot.queue.queue.getJob(queued.jobId);
  if (!job) throw new Error('job vanished');
  await job.waitUntilFinished(events, 30_000);
  return (await bot.queue.queue.getJob(queued.jobId)) ?? job;
}

async function waitForIdle(bot: RunningBot) {
  for (;;) {
    const counts = await bot.queue.queue.getJobCounts('waiting', 'active', 'prioritized');
    if ((counts.waiting ?? 0) + (counts.active ?? 0) + (counts.prioritized ?? 0) === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const durationOf = (job: Job) => (job.finishedOn ?? 0) - (job.processedOn ?? 0);

async function pollRun(
  bot: RunningBot,
  events: QueueEvents,
  emulator: Emulator,
  slackCalls: unknown[],
  scenario: string,
  before: (i: number) => void,
): Promise<Row> {
  const requests: number[] = [];
  const durations: number[] = [];
  const slackBefore = slackCalls.length;
  for (let i = 0; i < polls; i++) {
    before(i);
    const seen = emulator.received.length;
    const job = await settle(bot, events, 'pollFeed', { teamId: TEAM, slackChannel: SLACK_CHANNEL });
    requests.push(emulator.received.length - seen);
    durations.push(durationOf(job));
  }
  process.stdout.write(`${scenario}: ${requests.reduce((a, b) => a + b, 0)} requests in ${polls} polls\n`);
  return {
    scenario,
    polls,
    total: requests.reduce((a, b) => a + b, 0),
    requests,
    slackCalls: slackCalls.length - slackBefore,
    durations: summarize(durations),
  };
}

/**
 * Counts requests per tick of the feed's real job scheduler, every `everyMs`, for `ticks` ticks
 * (and the immediate tick of slowing it down again): each request the emulator received is
 * given to the tick whose run (processedOn..finishedOn) covers its arrival.
 */
async function tickRun(
  bot: RunningBot,
  events: QueueEvents,
  emulator: Emulator,
  slackCalls: unknown[],
  scenario: string,
): Promise<Row> {
  const slackBefore = slackCalls.length;
  const receivedBefore = emulator.received.length;
  const jobIds: string[] = [];
  const onCompleted = ({ jobId }: { jobId: string }) => {
    if (jobId.startsWith('repeat:')) jobIds.push(jobId);
  };
  events.on('completed', onCompleted);
  const onFailed = ({ jobId, failedReason }: { jobId: string; failedReason: string }) => {
    process.stdout.write(`tick ${jobId} failed: ${failedReason}\n`);
  };
  events.on('failed', onFailed);
  const id = feedSchedulerId(TEAM, SLACK_CHANNEL);
  const data = { teamId: TEAM, slackChannel: SLACK_CHANNEL };
  await bot.schedules.upsert(id, { everyMs }, 'pollFeed', data);
  while (jobIds.length < ticks) await new Promise((r) => setTimeout(r, everyMs));
  await bot.schedules.upsert(id, { everyMs: 24 * 3600_000 }, 'pollFeed', data);
  await waitForIdle(bot);
  await new Promise((r) => setTimeout(r, 200));
  events.off('completed', onCompleted);
  events.off('failed', onFailed);

  const jobs = (await Promise.all(jobIds.map((jobId) => bot.queue.queue.getJob(jobId)))).filter(
    (job): job is Job => job !== undefined && job.name === 'pollFeed',
  );
  const received = emulator.received.slice(receivedBefore);
  const requests = jobs.map(
    (job) => received.filter((r) => r.at >= (job.processedOn ?? 0) && r.at <= (job.finishedOn ?? 0)).length,
  );
  const unattributed = received.length - requests.reduce((a, b) => a + b, 0);
  process.stdout.write(
    `${scenario}: ${received.length} requests in ${jobs.length} ticks (${unattributed} outside any tick)\n`,
  );
  return {
    scenario,
    polls: jobs.length,
    total: received.length,
    requests,
    slackCalls: slackCalls.length - slackBefore,
    durations: summarize(jobs.map(durationOf)),
  };
}

async function wipe(prefix: string) {
  const redis = connectRedis(REDIS_URL, 'producer');
  await whenReady(redis);
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
}

function render(rows: Row[], machine: string): string {
  const histogram = (values: number[]) => {
    const counts = new Map<number, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    return [...counts.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([v, n]) => `${v}×${n}`)
      .join(', ');
  };
  return [
    `### Feed polling cost — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `Machine: ${machine}. Emulator without latency; the bot in-process (worker role).`,
    `Command: \`npm run bench:feed -- --polls ${polls} --ticks ${ticks} --every ${everyMs} --carded ${carded}\``,
    '',
    '| scenario | polls | API requests | requests per poll (min / mean / max) | requests per poll (value×polls) | Slack calls | poll p50 ms | poll p95 ms |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const total = r.total;
      return `| ${r.scenario} | ${r.polls} | ${total} | ${Math.min(...r.requests)} / ${round(total / r.polls)} / ${Math.max(...r.requests)} | ${histogram(r.requests)} | ${r.slackCalls} | ${round(r.durations.p50)} | ${round(r.durations.p95)} |`;
    }),
    '',
    `Target: a quiet followed channel costs one request per interval (FEED_POLL_INTERVAL_MS) with no open carded posts, and 1 + min(N, ${FEED_RECHECK_BATCH}) with N watched posts (open carded ones, and resolved ones for a day), whatever the number of workers.`,
  ].join('\n');
}

await main();
