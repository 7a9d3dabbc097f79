/**
 * Ack latency of slash commands: the bot's web role (ack, then enqueue for the worker) side by
 * side with an inline baseline (a Bolt handler that calls the API before acking), in one run,
 * against the emulator with added latency.
 *
 *   npm run bench:ack -- [--count 10000] [--rates 200] [--latency 300] [--no-write]
 *
 * Open-loop load: requests leave on a fixed schedule whatever the answers do, and latency is
 * measured from each request's scheduled time, so a slow server cannot hide its queueing.
 * Results are appended to BENCHMARKS.md with the date, the machine and the command.
 */
import { randomBytes } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { startEmulator } from '../src/sandbox/emulator/index.ts';
import { signSlackRequest, slashCommandBody, startSlackStandIn } from '../src/sandbox/slack/index.ts';
import { connectRedis, whenReady } from '../src/store/redis.ts';
import { freePort, rssMb, startChild, stopChild } from './lib/process.ts';
import { round, type Summary, summarize } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '10000' },
    rates: { type: 'string', default: '200' },
    latency: { type: 'string', default: '300' },
    'no-write': { type: 'boolean', default: false },
  },
});
const count = Number(values.count);
const rates = values.rates.split(',').map(Number);
const latency = Number(values.latency);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Result {
  variant: string;
  rate: number;
  sent: number;
  ok: number;
  errors: number;
  over3s: number;
  seconds: number;
  latency: Summary;
  rssMb: number | undefined;
}

async function load(port: number, secret: string, rate: number, n: number, postId: string, pid?: number) {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 512, pipelining: 1 });
  const samples: number[] = [];
  let ok = 0;
  let errors = 0;
  let peakRss = 0;
  const started = performance.now();
  const interval = 1000 / rate;
  const inFlight: Promise<void>[] = [];
  const rssTimer = setInterval(() => {
    void rssMb(pid).then((mb) => {
      if (mb !== undefined) peakRss = Math.max(peakRss, mb);
    });
  }, 250);
  const send = async (i: number, scheduled: number) => {
    const body = slashCommandBody({
      command: '/collab',
      text: `resolve ${postId} bench ${i}`,
      user_id: 'U_ADA',
      channel_id: 'C_GENERAL',
      team_id: 'T_LOCAL',
      response_url: `http://127.0.0.1:1/response/${i}`,
      trigger_id: `bench-${randomBytes(6).toString('hex')}-${i}`,
    });
    try {
      const res = await pool.request({
        method: 'POST',
        path: '/slack/events',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(secret, body) },
        body,
        headersTimeout: 60_000,
        bodyTimeout: 60_000,
      });
      await res.body.text();
      if (res.statusCode === 200) ok++;
      else errors++;
    } catch {
      errors++;
    }
    samples.push(performance.now() - scheduled);
  };
  for (let i = 0; i < n; i++) {
    const scheduled = started + i * interval;
    const wait = scheduled - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(send(i, scheduled));
  }
  await Promise.all(inFlight);
  clearInterval(rssTimer);
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return { samples, ok, errors, seconds, peakRss: peakRss || undefined };
}

async function main() {
  const emulator = await startEmulator({ port: 0 });
  emulator.faults.setLatency(latency);
  const slack = await startSlackStandIn();
  const postId = [...emulator.org().posts.keys()][0] ?? 'pst_none';
  const results: Result[] = [];

  for (const rate of rates) {
    for (const variant of ['queue (web role)', 'inline baseline'] as const) {
      const port = await freePort();
      const secret = `bench-${randomBytes(8).toString('hex')}`;
      const prefix = `bench-${randomBytes(4).toString('hex')}`;
      const env = {
        SLACK_SIGNING_SECRET: secret,
        SLACK_BOT_TOKEN: 'xoxb-test-bench',
        SLACK_BOT_USER_ID: 'U_BOT',
        SLACK_API_URL: slack.url,
        COLLAB_API_URL: emulator.url,
        COLLAB_API_KEY: emulator.apiKey,
        REDIS_URL,
        QUEUE_PREFIX: prefix,
        PORT: String(port),
        LOG_LEVEL: 'warn',
      };
      const entry = variant === 'inline baseline' ? 'bench/inline-app.ts' : 'src/main.ts';
      const child = await startChild(entry, variant === 'inline baseline' ? [] : ['--role=web'], env, port);
      // Warm up connections and JIT before measuring.
      await load(port, secret, Math.min(rate, 100), 200, postId);
      const run = await load(port, secret, rate, count, postId, child.pid);
      await stopChild(child);
      await wipe(prefix);
      const latencySummary = summarize(run.samples);
      results.push({
        variant,
        rate,
        sent: count,
        ok: run.ok,
        errors: run.errors,
        over3s: run.samples.filter((s) => s > 3000).length,
        seconds: run.seconds,
        latency: latencySummary,
        rssMb: run.peakRss,
      });
      process.stdout.write(
        `${variant} @ ${rate}/s: p50 ${round(latencySummary.p50)} ms, p95 ${round(latencySummary.p95)} ms, p99 ${round(latencySummary.p99)} ms, errors ${run.errors}\n`,
      );
    }
  }
  await emulator.close();
  await slack.close();
  const report = render(results);
  process.stdout.write(`\n${report}\n`);
  if (!values['no-write']) await appendFile(new URL('../BENCHMARKS.md', import.meta.url), `\n${report}\n`);
}

async function wipe(prefix: string) {
  const redis = connectRedis(REDIS_URL, 'producer');
  await whenReady(redis);
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (found.length > 0) await redis.del(...found);
  } while (cursor !== '0');
  redis.disconnect();
}

function render(results: Result[]): string {
  const cpu = cpus()[0]?.model ?? 'unknown cpu';
  const lines = [
    `### Ack latency — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `Machine: ${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. Emulator latency ${latency} ms.`,
    `Command: \`npm run bench:ack -- --count ${count} --rates ${rates.join(',')} --latency ${latency}\``,
    '',
    '| variant | rate (req/s) | requests | ok | errors | p50 ms | p95 ms | p99 ms | max ms | acks > 3 s | achieved req/s | peak RSS MB |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.variant} | ${r.rate} | ${r.sent} | ${r.ok} | ${r.errors} | ${round(r.latency.p50)} | ${round(r.latency.p95)} | ${round(r.latency.p99)} | ${round(r.latency.max)} | ${r.over3s} | ${round(r.sent / r.seconds, 1)} | ${r.rssMb === undefined ? '–' : round(r.rssMb, 0)} |`,
    ),
  ];
  for (const rate of rates) {
    const queued = results.find((r) => r.rate === rate && r.variant.startsWith('queue'));
    const inline = results.find((r) => r.rate === rate && r.variant.startsWith('inline'));
    if (queued && inline) {
      lines.push(
        '',
        `At ${rate} req/s the queued ack's p99 is ${round(inline.latency.p99 / Math.max(0.001, queued.latency.p99), 1)}× lower than inline.`,
      );
    }
  }
  return lines.join('\n');
}

await main();
