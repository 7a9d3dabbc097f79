/**
 * Time to outcome, the figure a person feels: from a signed `/collab resolve` to its outcome
 * arriving at the command's response_url — the built bot (`node dist/main.js`, role all,
 * NODE_ENV=production) against the emulator with a fixed latency and the Slack stand-in, next to
 * its floor in the same run: one direct resolve call to the emulator plus one POST to the
 * response_url, nothing else.
 *
 *   npm run build && npm run bench:outcome -- [--rates 20,50,200] [--seconds 20] [--latency 100]
 *                                             [--warmup 2] [--rounds 4] [--concurrency N]
 *                                             [--prof DIR] [--appendfsync off|everysec|always]
 *
 * Open-loop load: requests leave on a fixed schedule whatever the answers do, and every latency is
 * measured from the request's scheduled time, so queueing cannot hide. Before the measured turns,
 * the bot and its floor alike run `--warmup` seconds at the measured rate, not counted: pools
 * grow to the rate's connections and the JIT settles (without it the first second of either is
 * up to twice as slow, and at 200/s those 200 requests alone make the p99). The measured
 * `--seconds` are split into `--rounds` turns of each, every other round the floor first: this
 * machine's speed drifts within minutes, and a bot run and a floor run a minute apart compared
 * two machines. The bot's CPU per command (ack and worker, one process) is printed too.
 * The bot runs on a redis-server of the benchmark's own, with no AOF unless `--appendfsync` asks
 * for one (in a temp dir): `always` is what docs/operations.md tells production to run, and what it costs
 * a person is the bot's ratio to its floor with it against the same without. Its request budget
 * is set far above the load (COLLAB_RATE_LIMIT): the emulator has no rate limit, and this
 * measures the bot, not the service's limit (the budget's Redis round trip per request is still
 * paid).
 * Prints its report (date, machine, commit, command); BENCHMARKS.md is updated by hand.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { createCollabClient } from '../src/collab/client.ts';
import { startEmulator } from '../src/sandbox/emulator/index.ts';
import { findOnPath, startPrivateRedis } from '../src/sandbox/redis.ts';
import { signSlackRequest, slashCommandBody, startSlackStandIn } from '../src/sandbox/slack/index.ts';
import { cpuMs, freePort, machineLine, parseRuntime, rssMb, startChild, stopChild } from './lib/process.ts';
import { round, type Summary, summarize } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    rates: { type: 'string', default: '20,50,200' },
    seconds: { type: 'string', default: '20' },
    latency: { type: 'string', default: '100' },
    /** seconds at the measured rate before each measured run, not counted */
    warmup: { type: 'string', default: '2' },
    /** WORKER_CONCURRENCY of the bot, or several (comma separated) run one after the other; default: the bot's own default */
    concurrency: { type: 'string', default: 'default' },
    /** a directory: the bot writes a CPU profile there (node --cpu-prof) */
    prof: { type: 'string' },
    /** turns of the bot and its floor per rate (the measured seconds split among them) */
    rounds: { type: 'string', default: '4' },
    /** the bot's Redis keeps an AOF with this fsync policy; `off`: no AOF */
    appendfsync: { type: 'string', default: 'off' },
  },
});
const RATES = values.rates.split(',').map(Number);
const SECONDS = Number(values.seconds);
const LATENCY = Number(values.latency);
const WARMUP = Number(values.warmup);
const ROUNDS = Math.max(1, Number(values.rounds));
const CONCURRENCIES = values.concurrency.split(',');
parseRuntime('js');
const binary = findOnPath('redis-server');
if (!binary) throw new Error('bench:outcome needs redis-server on PATH');
const log = (line: string) => process.stdout.write(`${line}\n`);

interface Row {
  rate: number;
  sent: number;
  ack?: Summary;
  outcome: Summary;
  missing: number;
  /** outcomes per second over the run (sent / time until the last outcome) */
  achieved: number;
  rssMb?: number | undefined;
}

const machine = await machineLine();
const APPENDFSYNC = values.appendfsync;
if (!['off', 'everysec', 'always'].includes(APPENDFSYNC))
  throw new Error(`--appendfsync is off, everysec or always, not "${APPENDFSYNC}"`);
const aofDir = APPENDFSYNC === 'off' ? undefined : mkdtempSync(join(tmpdir(), 'bench-outcome-aof-'));
const redisServer = await startPrivateRedis(
  binary,
  10_000,
  aofDir ? ['--dir', aofDir, '--appendonly', 'yes', '--appendfsync', APPENDFSYNC] : [],
);
const emulator = await startEmulator({ port: 0 });
emulator.faults.setLatency(LATENCY);
const slack = await startSlackStandIn();
const postId = [...emulator.org().posts.keys()][0] ?? 'pst_none';

/** response_url id → when its first POST arrived (performance.now) */
const arrivals = new Map<string, number>();
slack.onCall((call) => {
  if (call.method !== 'response_url') return;
  const id = String((call as { path?: string }).path ?? '').slice('/response/'.length);
  if (!arrivals.has(id)) arrivals.set(id, performance.now());
});

/** Open loop: `send(i)` at started + i / rate; answers when every send settled. */
async function openLoop(rate: number, n: number, send: (i: number, scheduled: number) => Promise<void>) {
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    const scheduled = started + (i * 1000) / rate;
    const wait = scheduled - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(send(i, scheduled));
  }
  await Promise.all(inFlight);
  return started;
}

/** Waits until every id has its outcome, or `timeoutMs` passed without a new one. */
async function outcomes(ids: string[], timeoutMs = 30_000): Promise<void> {
  let seen = -1;
  let since = performance.now();
  for (;;) {
    const count = ids.filter((id) => arrivals.has(id)).length;
    if (count === ids.length) return;
    if (count !== seen) {
      seen = count;
      since = performance.now();
    } else if (performance.now() - since > timeoutMs) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Latencies of the pooled chunks; outcomes per second from each chunk's first send to its last outcome. */
function row(rate: number, chunks: Chunk[]): Row {
  const samples = chunks.flatMap(({ ids, scheduled }) =>
    ids.map((id, i) => {
      const at = arrivals.get(id);
      return at === undefined ? Number.POSITIVE_INFINITY : at - scheduled[i]!;
    }),
  );
  const acks = chunks.flatMap((c) => c.acks);
  const seconds = chunks.reduce((sum, { ids, scheduled }) => {
    const last = Math.max(...ids.map((id) => arrivals.get(id) ?? 0));
    return sum + (last - scheduled[0]!) / 1000;
  }, 0);
  return {
    rate,
    sent: samples.length,
    ...(acks.length > 0 ? { ack: summarize(acks) } : {}),
    outcome: summarize(samples),
    missing: samples.filter((x) => !Number.isFinite(x)).length,
    achieved: samples.length / seconds,
  };
}

/** A chunk of the open loop: the ids sent, when each was scheduled, and the acks (the bot's). */
interface Chunk {
  ids: string[];
  scheduled: number[];
  acks: number[];
}

/** The floor: one direct resolve call to the emulator plus one POST to the response_url. */
function floorLoad() {
  const collab = createCollabClient({ baseUrl: emulator.url, apiKey: emulator.apiKey, connections: 1024 });
  const responses = new Pool(slack.origin, { connections: 1024 });
  const once = async (id: string) => {
    try {
      await collab.resolvePost(postId, {});
      const res = await responses.request({
        method: 'POST',
        path: `/response/${id}`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ replace_original: true, text: 'Resolved.' }),
      });
      await res.body.text();
    } catch {
      // counted as missing
    }
  };
  return {
    async run(rate: number, n: number, tag: string): Promise<Chunk> {
      const ids = Array.from({ length: n }, (_, i) => `${tag}-${i}`);
      const scheduled: number[] = [];
      await openLoop(rate, n, async (i, at) => {
        scheduled[i] = at;
        await once(ids[i]!);
      });
      await outcomes(ids, 5000);
      return { ids, scheduled, acks: [] };
    },
    async close() {
      await collab.close();
      await responses.close();
    },
  };
}

/** The built bot (role all, production) in a process of its own, and signed `/collab resolve` commands to it. */
async function botLoad(concurrency: string) {
  const port = await freePort();
  const secret = `bench-${randomBytes(8).toString('hex')}`;
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    ROLE: 'all',
    SLACK_SIGNING_SECRET: secret,
    SLACK_BOT_TOKEN: 'xoxb-test-bench',
    SLACK_BOT_USER_ID: 'U_BOT',
    SLACK_API_URL: slack.url,
    COLLAB_API_URL: emulator.url,
    COLLAB_API_KEY: emulator.apiKey,
    ALLOW_INSECURE_COLLAB_URL: 'true',
    COLLAB_RATE_LIMIT: '1000000',
    REDIS_URL: redisServer.url,
    // the benchmark's own Redis keeps nothing on disk: production mode would refuse it
    REDIS_ALLOW_VOLATILE: 'true',
    QUEUE_PREFIX: `bench-${randomBytes(4).toString('hex')}`,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    ...(concurrency === 'default' ? {} : { WORKER_CONCURRENCY: concurrency }),
  };
  const child = await startChild(
    'src/main.ts',
    [],
    env,
    port,
    'js',
    values.prof ? ['--cpu-prof', '--cpu-prof-dir', values.prof] : [],
  );
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 512 });
  let sent = 0;
  const command = async (id: string): Promise<number> => {
    const body = slashCommandBody({
      command: '/collab',
      text: `resolve ${postId}`,
      user_id: 'U_ADA',
      channel_id: 'C_GENERAL',
      team_id: 'T_LOCAL',
      response_url: slack.responseUrl(id),
      trigger_id: `bench-${randomBytes(6).toString('hex')}-${sent++}`,
    });
    const res = await pool.request({
      method: 'POST',
      path: '/slack/events',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(secret, body) },
      body,
      headersTimeout: 60_000,
      bodyTimeout: 60_000,
    });
    await res.body.text();
    return res.statusCode;
  };
  let peak = 0;
  const rssTimer = setInterval(() => {
    void rssMb(child.pid).then((mb) => {
      if (mb !== undefined) peak = Math.max(peak, mb);
    });
  }, 250);
  return {
    async run(rate: number, n: number, tag: string, timeoutMs = 30_000): Promise<Chunk> {
      const ids = Array.from({ length: n }, (_, i) => `${tag}-${i}`);
      const scheduled: number[] = [];
      const acks: number[] = [];
      await openLoop(rate, n, async (i, at) => {
        scheduled[i] = at;
        try {
          const status = await command(ids[i]!);
          acks.push(status === 200 ? performance.now() - at : Number.POSITIVE_INFINITY);
        } catch {
          acks.push(Number.POSITIVE_INFINITY);
        }
      });
      await outcomes(ids, timeoutMs);
      return { ids, scheduled, acks };
    },
    cpuMs: async () => (await cpuMs(child.pid)) ?? 0,
    peakRssMb: () => peak || undefined,
    async close() {
      clearInterval(rssTimer);
      await pool.close();
      await stopChild(child);
    },
  };
}

/**
 * One rate: both warmed up (the bot first at a gentle rate, then each `--warmup` s at the rate),
 * then `--rounds` turns each of `--seconds`/`--rounds` s, every other round the floor first, so
 * that both meet the same machine (its speed drifts within minutes). Latencies are pooled over
 * the rounds.
 */
async function measure(
  rate: number,
  concurrency: string,
): Promise<{ floor: Row; bot: Row; cpuMsPerOp: number }> {
  const floor = floorLoad();
  const bot = await botLoad(concurrency);
  const tag = (what: string) => `${what}-${rate}-${randomBytes(3).toString('hex')}`;
  await bot.run(Math.min(rate, 50), 100, tag('warm-bot-gentle'), 10_000);
  await bot.run(rate, Math.round(rate * WARMUP), tag('warm-bot'), 10_000);
  await floor.run(rate, Math.round(rate * WARMUP), tag('warm-floor'));
  const perRound = Math.max(1, Math.round((rate * SECONDS) / ROUNDS));
  const pooled = { floor: [] as Chunk[], bot: [] as Chunk[] };
  let botCpuMs = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const floorFirst = r % 2 === 1;
    for (const side of floorFirst ? (['floor', 'bot'] as const) : (['bot', 'floor'] as const)) {
      if (side === 'floor') pooled.floor.push(await floor.run(rate, perRound, tag(`floor-r${r}`)));
      else {
        const cpu0 = await bot.cpuMs();
        pooled.bot.push(await bot.run(rate, perRound, tag(`bot-r${r}`)));
        botCpuMs += (await bot.cpuMs()) - cpu0;
      }
    }
  }
  await floor.close();
  const rssPeak = bot.peakRssMb();
  await bot.close();
  const botRow = { ...row(rate, pooled.bot), rssMb: rssPeak };
  return { floor: row(rate, pooled.floor), bot: botRow, cpuMsPerOp: botCpuMs / botRow.sent };
}

const results: { floor: Row; bot: Row; concurrency: string; cpuMsPerOp: number }[] = [];
for (const rate of RATES) {
  for (const concurrency of CONCURRENCIES) {
    const { floor: f, bot: b, cpuMsPerOp } = await measure(rate, concurrency);
    results.push({ floor: f, bot: b, concurrency, cpuMsPerOp });
    log(
      `${rate}/s, concurrency ${concurrency}: ack p99 ${round(b.ack?.p99 ?? 0)} ms, outcome p50 ${round(b.outcome.p50)} / p99 ${round(b.outcome.p99)} ms (missing ${b.missing}), floor p99 ${round(f.outcome.p99)} ms, ratio ${round(b.outcome.p99 / f.outcome.p99, 2)}; bot CPU ${round(cpuMsPerOp, 2)} ms per command`,
    );
  }
}
await emulator.close();
await slack.close();
await redisServer.stop();
if (aofDir) rmSync(aofDir, { recursive: true, force: true });

const ms = (n: number) => (Number.isFinite(n) ? String(round(n)) : '∞');
const report = [
  `### Time to outcome — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  '',
  `Machine: ${machine}. Bot: \`node dist/main.js\`, ROLE=all, NODE_ENV=production, one process (WORKER_CONCURRENCY default: sized from the budget, here 256); its Redis ${APPENDFSYNC === 'off' ? 'without AOF' : `with \`appendfsync ${APPENDFSYNC}\``}; API latency ${LATENCY} ms; ${SECONDS} s per rate, open loop, in ${ROUNDS} turns of each (every other round the floor first), after ${WARMUP} s at the rate not counted (bot and floor alike).`,
  `Command: \`npm run build && npm run bench:outcome -- --rates ${RATES.join(',')} --seconds ${SECONDS} --latency ${LATENCY} --warmup ${WARMUP} --rounds ${ROUNDS}${values.concurrency === 'default' ? '' : ` --concurrency ${values.concurrency}`}${APPENDFSYNC === 'off' ? '' : ` --appendfsync ${APPENDFSYNC}`}\``,
  '',
  '| rate (req/s) | WORKER_CONCURRENCY | sent | ack p99 ms | outcome p50 ms | outcome p99 ms | outcome max ms | missing | outcomes/s | floor p50 ms | floor p99 ms | ratio p99 | bot CPU ms per command | bot RSS peak MB |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ...results.map(
    ({ floor: f, bot: b, concurrency, cpuMsPerOp }) =>
      `| ${b.rate} | ${concurrency} | ${b.sent} | ${ms(b.ack?.p99 ?? Number.NaN)} | ${ms(b.outcome.p50)} | ${ms(b.outcome.p99)} | ${ms(b.outcome.max)} | ${b.missing} | ${round(b.achieved, 1)} | ${ms(f.outcome.p50)} | ${ms(f.outcome.p99)} | ${round(b.outcome.p99 / f.outcome.p99, 2)} | ${round(cpuMsPerOp, 2)} | ${b.rssMb === undefined ? '–' : round(b.rssMb, 0)} |`,
  ),
].join('\n');
log(`\n${report}`);
