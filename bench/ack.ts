/**
 * Ack latency of slash commands: the bot's web role (ack, then enqueue for the worker) side by
 * side with an inline baseline (a Bolt handler that calls the API before acking), in one run,
 * against the emulator with added latency — and, with `--stall`, against an emulator that holds
 * every answer that long (the share of acks past Slack's 3 s is the figure there).
 *
 *   npm run bench:ack -- [--rates 50,200,500] [--seconds 20 | --count N] [--latency 300]
 *                        [--stall 5000 [--stall-rate 200]] [--runtime tsx|js] [--node-options '…']
 *
 * `--runtime js` runs the web role from `npm run build`'s dist/ (as the Docker image does)
 * instead of through tsx. The RSS columns are the web role's (or the baseline's): idle after
 * start-up and warm-up, and the peak under the load.
 *
 * Open-loop load: requests leave on a fixed schedule whatever the answers do, and latency is
 * measured from each request's scheduled time, so a slow server cannot hide its queueing.
 * Prints its report (date, machine, commit, command); BENCHMARKS.md is updated by hand.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { startEmulator } from '../src/sandbox/emulator/index.ts';
import { signSlackRequest, slashCommandBody, startSlackStandIn } from '../src/sandbox/slack/index.ts';
import { connectRedis, deleteKeys, whenReady } from '../src/store/redis.ts';
import {
  freePort,
  machineLine,
  parseRuntime,
  type Runtime,
  rssMb,
  startChild,
  stopChild,
} from './lib/process.ts';
import { round, type Summary, summarize } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string' },
    seconds: { type: 'string', default: '20' },
    rates: { type: 'string', default: '50,200,500' },
    latency: { type: 'string', default: '300' },
    stall: { type: 'string' },
    'stall-rate': { type: 'string', default: '200' },
    runtime: { type: 'string', default: 'tsx' },
    /** NODE_OPTIONS of the web role only (memory experiments, e.g. --max-semi-space-size=4) */
    'node-options': { type: 'string', default: '' },
  },
});
const countFor = (rate: number) =>
  values.count === undefined ? Math.round(rate * Number(values.seconds)) : Number(values.count);
const rates = values.rates.split(',').map(Number);
const latency = Number(values.latency);
const stall = values.stall === undefined ? undefined : Number(values.stall);
const stallRate = Number(values['stall-rate']);
const runtime: Runtime = parseRuntime(values.runtime);
const machine = await machineLine();
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Result {
  variant: string;
  /** the emulator's latency in this scenario */
  apiMs: number;
  rate: number;
  sent: number;
  ok: number;
  errors: number;
  over3s: number;
  seconds: number;
  latency: Summary;
  idleRssMb: number | undefined;
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
      samples.push(performance.now() - scheduled);
    } catch {
      errors++;
      // An answer that never came counts as past any deadline.
      samples.push(Number.POSITIVE_INFINITY);
    }
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
  const scenarios = [
    ...rates.map((rate) => ({ rate, apiMs: latency })),
    ...(stall === undefined ? [] : [{ rate: stallRate, apiMs: stall }]),
  ];

  for (const { rate, apiMs } of scenarios) {
    emulator.faults.setLatency(apiMs);
    const count = countFor(rate);
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
        ...(variant === 'inline baseline' || values['node-options'] === ''
          ? {}
          : { NODE_OPTIONS: values['node-options'] }),
      };
      const entry = variant === 'inline baseline' ? 'bench/inline-app.ts' : 'src/main.ts';
      const child = await startChild(
        entry,
        variant === 'inline baseline' ? [] : ['--role=web'],
        env,
        port,
        runtime,
      );
      // Warm up connections and JIT before measuring (at the normal latency: a stalled API
      // would hold the baseline's warm-up past the measurement).
      emulator.faults.setLatency(latency);
      await load(port, secret, Math.min(rate, 100), 200, postId);
      emulator.faults.setLatency(apiMs);
      const idleRss = await rssMb(child.pid);
      const run = await load(port, secret, rate, count, postId, child.pid);
      await stopChild(child);
      await wipe(prefix);
      const latencySummary = summarize(run.samples);
      results.push({
        variant,
        apiMs,
        rate,
        sent: count,
        ok: run.ok,
        errors: run.errors,
        over3s: run.samples.filter((s) => s > 3000).length,
        seconds: run.seconds,
        latency: latencySummary,
        idleRssMb: idleRss,
        rssMb: run.peakRss,
      });
      process.stdout.write(
        `${variant} @ ${rate}/s, API ${apiMs} ms: p50 ${round(latencySummary.p50)} ms, p95 ${round(latencySummary.p95)} ms, p99 ${round(latencySummary.p99)} ms, errors ${run.errors}, past 3 s ${results.at(-1)?.over3s}, RSS idle ${round(idleRss ?? 0, 0)} MB peak ${round(run.peakRss ?? 0, 0)} MB\n`,
      );
    }
  }
  await emulator.close();
  await slack.close();
  const report = render(results);
  process.stdout.write(`\n${report}\n`);
}

async function wipe(prefix: string) {
  const redis = connectRedis(REDIS_URL, 'producer');
  await whenReady(redis);
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
}

function render(results: Result[]): string {
  const ms = (n: number) => (Number.isFinite(n) ? String(round(n)) : '∞ (no answer)');
  const lines = [
    `### Ack latency — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `Machine: ${machine}. Web role runtime: ${runtime === 'js' ? 'node dist/main.js (built)' : 'node --import tsx src/main.ts'}; the baseline runs under tsx. No worker runs: jobs wait in Redis.`,
    `Command: \`npm run bench:ack -- --rates ${rates.join(',')} ${values.count === undefined ? `--seconds ${values.seconds}` : `--count ${values.count}`} --latency ${latency}${stall === undefined ? '' : ` --stall ${stall} --stall-rate ${stallRate}`} --runtime ${runtime}${values['node-options'] ? ` --node-options='${values['node-options']}'` : ''}\``,
    '',
    '| variant | API latency ms | rate (req/s) | requests | ok | errors | p50 ms | p95 ms | p99 ms | max ms | acks > 3 s | share > 3 s | achieved req/s | RSS idle MB | RSS peak MB |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.variant} | ${r.apiMs} | ${r.rate} | ${r.sent} | ${r.ok} | ${r.errors} | ${ms(r.latency.p50)} | ${ms(r.latency.p95)} | ${ms(r.latency.p99)} | ${ms(r.latency.max)} | ${r.over3s} | ${round((100 * r.over3s) / Math.max(1, r.sent), 1)} % | ${round(r.sent / r.seconds, 1)} | ${r.idleRssMb === undefined ? '–' : round(r.idleRssMb, 0)} | ${r.rssMb === undefined ? '–' : round(r.rssMb, 0)} |`,
    ),
  ];
  for (const r of results.filter((x) => x.variant.startsWith('queue'))) {
    const inline = results.find(
      (x) => x.rate === r.rate && x.apiMs === r.apiMs && x.variant.startsWith('inline'),
    );
    if (!inline) continue;
    const ratio = inline.latency.p99 / Math.max(0.001, r.latency.p99);
    lines.push(
      '',
      `At ${r.rate} req/s with the API at ${r.apiMs} ms the queued ack's p99 is ${Number.isFinite(ratio) ? `${round(ratio, 1)}×` : 'infinitely'} lower than inline.`,
    );
  }
  return lines.join('\n');
}

await main();
