/**
 * The fault suite: 1,000 mixed operations (createPost, createComment, sendDm into a thread,
 * resolve, unresolve) as SIGNED slash commands to the web role, while
 * - the worker (a child process, `node --import tsx src/main.ts --role=worker`) is SIGKILLed
 *   20 times at random moments and restarted,
 * - the suite's own Redis (AOF, appendfsync always) is killed once mid-run and restarted,
 * - the emulator answers ~10 % 5xx, ~5 % 429 (half without Retry-After, some with a plain-text
 *   body), drops ~2 % of connections after applying the write, and stalls ~1 % of answers past
 *   the client's timeout.
 * Then, once the queue is quiet, it reconciles the emulator's state with what was asked and
 * with what each person was told: nothing duplicated, nothing lost.
 *
 *   npm run test:faults                       (FAULT_OPS, FAULT_KILLS, FAULT_SEED override)
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { type RunningBot, startBot } from '../../src/runtime.ts';
import { type Emulator, startEmulator } from '../../src/sandbox/emulator/index.ts';
import { type SlackStandIn, slashCommandBody, startSlackStandIn } from '../../src/sandbox/slack/index.ts';
import { connectRedis, type Redis } from '../../src/store/redis.ts';
import { postToBolt } from '../support/slack-client.ts';
import { killTracked } from './support/children.ts';
import {
  type AckRecord,
  appliedCounts,
  type Op,
  planOperations,
  prng,
  toldTexts,
  type Verdict,
  verdictOf,
} from './support/plan.ts';
import { type OwnRedis, startOwnRedis } from './support/redis-server.ts';
import { type WorkerProcess, workerProcess } from './support/worker-process.ts';

const OPS = Number(process.env.FAULT_OPS ?? 1000);
const KILLS = Number(process.env.FAULT_KILLS ?? 20);
const SEED = Number(process.env.FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** Operations sent per second (open loop). */
const RATE = Number(process.env.FAULT_RATE ?? 20);
/** How long Redis stays down. */
const REDIS_DOWN_MS = 1500;
const QUIET_DEADLINE_MS = 240_000;
const OUT_DIR = new URL('../../test-output/faults/', import.meta.url);

const TEAM = 'T_LOCAL';
const USER = 'U_ADA';

describe(`fault suite: ${OPS} operations, ${KILLS} worker kills, a Redis restart, a faulty API (seed ${SEED})`, () => {
  let redis: OwnRedis;
  let emulator: Emulator;
  let slack: SlackStandIn;
  let web: RunningBot;
  let worker: WorkerProcess;
  let observer: Redis;
  let queue: Queue;
  const prefix = `faults-${randomBytes(4).toString('hex')}`;
  const signingSecret = `faults-${randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    mkdirSync(OUT_DIR, { recursive: true });
    redis = await startOwnRedis();
    emulator = await startEmulator();
    slack = await startSlackStandIn();
    const env: Record<string, string> = {
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_BOT_TOKEN: 'xoxb-faults',
      SLACK_BOT_USER_ID: 'U_BOT',
      SLACK_API_URL: slack.url,
      COLLAB_API_URL: emulator.url,
      COLLAB_API_KEY: emulator.apiKey,
      COLLAB_TIMEOUT_MS: '1000',
      COLLAB_CONNECT_TIMEOUT_MS: '1000',
      REDIS_URL: redis.url,
      QUEUE_PREFIX: prefix,
      JOB_BACKOFF_MS: '100',
      // Its 429s are random, not a spent budget: a short host-wide pause, like the backoff. Its
      // load is bursts of 1000 operations, over the real service's 500 per 30 s: the budget is
      // opened so that faults, not turns, decide the delays (as against the emulator's no limit).
      COLLAB_RATE_PAUSE_MS: '100',
      COLLAB_RATE_LIMIT: '1000000',
      JOB_ATTEMPTS: '6',
      JOB_LOCK_MS: '4000',
      WORKER_CONCURRENCY: '16',
    };
    web = await startBot(
      loadConfig({ ...env, ROLE: 'web', PORT: '0', LOG_LEVEL: 'silent' }),
      createLogger({ level: 'silent' }),
    );
    // PORT 0: the worker role's /healthz server takes a free port, never one somebody else holds.
    worker = workerProcess({ ...env, PORT: '0', LOG_LEVEL: 'info' }, new URL('worker.log', OUT_DIR).pathname);
    await worker.start();
    observer = connectRedis(redis.url, 'worker');
    queue = new Queue('operations', { connection: observer, prefix });
    queue.on('error', () => {});
  }, 60_000);

  afterAll(async () => {
    await worker?.stop().catch(() => {});
    await web?.stop().catch(() => {});
    await queue?.close().catch(() => {});
    observer?.disconnect();
    await emulator?.close();
    await slack?.close();
    await redis?.close();
    killTracked();
  }, 60_000);

  it('applies every operation exactly once or reports it failed: none duplicated, none silent', async () => {
    const random = prng(SEED);
    const org = emulator.org();
    const ops = planOperations(org, OPS, random);

    // The faulty API. Rules roll in order, so each probability is of what the rules before left.
    const faults = emulator.faults;
    const share = (wanted: number, taken: number) => wanted / (1 - taken);
    faults.add({ route: '*', times: Infinity, probability: 0.1, status: 503 });
    faults.add({ route: '*', times: Infinity, probability: share(0.015, 0.1), status: 429, retryAfter: '1' });
    faults.add({
      route: '*',
      times: Infinity,
      probability: share(0.01, 0.115),
      status: 429,
      retryAfter: '0',
      body: 'Slow down',
      contentType: 'text/plain',
    });
    faults.add({ route: '*', times: Infinity, probability: share(0.015, 0.125), status: 429 });
    faults.add({
      route: '*',
      times: Infinity,
      probability: share(0.01, 0.14),
      status: 429,
      body: 'Too many requests, try later',
      contentType: 'text/plain',
    });
    faults.add({ route: '*', times: Infinity, probability: share(0.02, 0.15), drop: 'afterApply' });
    faults.add({ route: '*', times: Infinity, probability: share(0.01, 0.17), stallMs: 2500 });

    const started = Date.now();
    const sendMs = (OPS / RATE) * 1000;
    const acks = new Map<number, AckRecord>();
    const chaosLog: string[] = [];
    const at = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

    // The chaos: KILLS worker kills at random moments over the run, and one Redis restart mid-run.
    const killTimes = Array.from({ length: KILLS }, () => 500 + random() * (sendMs + 5000)).sort(
      (a, b) => a - b,
    );
    const redisAt = sendMs * 0.5;
    const timeline = [
      ...killTimes.map((t) => ({ t, what: 'kill' as const })),
      { t: redisAt, what: 'redis' as const },
    ].sort((a, b) => a.t - b.t);
    let kills = 0;
    let redisDownAt = 0;
    let redisUpAt = 0;
    const chaos = (async () => {
      for (const step of timeline) {
        const wait = started + step.t - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (step.what === 'kill') {
          await worker.kill();
          kills += 1;
          chaosLog.push(`${at()} worker SIGKILL #${kills}`);
          await worker.start();
          chaosLog.push(`${at()} worker up`);
        } else {
          await redis.kill();
          redisDownAt = Date.now() - started;
          chaosLog.push(`${at()} redis SIGKILL`);
          await new Promise((resolve) => setTimeout(resolve, REDIS_DOWN_MS));
          await redis.start();
          redisUpAt = Date.now() - started;
          chaosLog.push(`${at()} redis up`);
        }
      }
    })();

    // The load: signed slash commands on a fixed schedule (open loop), each with its own response_url.
    const sends: Promise<void>[] = [];
    for (const op of ops) {
      const scheduled = started + (op.index * 1000) / RATE;
      const wait = scheduled - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      sends.push(send(op));
    }
    await Promise.all(sends);
    await chaos;

    async function send(op: Op): Promise<void> {
      const body = slashCommandBody({
        command: '/collab',
        text: op.text,
        user_id: USER,
        channel_id: 'C_GENERAL',
        team_id: TEAM,
        response_url: slack.responseUrl(op.token),
        trigger_id: `faults-${prefix}-${op.token}`,
      });
      const t0 = performance.now();
      try {
        const res = await postToBolt(`http://127.0.0.1:${web.port}`, signingSecret, 'command', body);
        let text = res.body;
        try {
          text = String((JSON.parse(res.body) as { text?: unknown }).text ?? res.body);
        } catch {
          // an empty or plain-text ack stays as it is
        }
        acks.set(op.index, { status: res.status, text, ms: performance.now() - t0 });
      } catch (error) {
        acks.set(op.index, { status: undefined, text: String(error), ms: performance.now() - t0 });
      }
    }

    // Quiescence: the queue holds nothing to do for a few polls in a row (a bounded poll, not a sleep).
    const deadline = Date.now() + QUIET_DEADLINE_MS;
    let quietPolls = 0;
    let counts: Record<string, number> = {};
    while (quietPolls < 4) {
      if (Date.now() > deadline) {
        throw new Error(`the queue did not drain within ${QUIET_DEADLINE_MS} ms: ${JSON.stringify(counts)}`);
      }
      counts = await queue.getJobCounts('wait', 'active', 'delayed', 'prioritized', 'waiting-children');
      const busy = Object.values(counts).reduce((a, b) => a + b, 0);
      quietPolls = busy === 0 ? quietPolls + 1 : 0;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const drainedAt = Date.now() - started;

    // The outcome of a job that failed by stalling is told from the worker's 'failed' event, just
    // after the job settles: give every operation a bounded moment to be accounted for.
    let verdicts = new Map<number, Verdict>();
    const reconcile = () => {
      const applied = appliedCounts(org, ops);
      const told = toldTexts(slack.responseUrlCalls);
      verdicts = new Map(
        ops.map((op) => [
          op.index,
          verdictOf(applied.get(op.index) ?? 0, acks.get(op.index), told.get(op.token) ?? []),
        ]),
      );
      return [...verdicts.values()].every((v) => v !== 'lost' && v !== 'appliedUntold');
    };
    const settleBy = Date.now() + 10_000;
    while (!reconcile() && Date.now() < settleBy) await new Promise((resolve) => setTimeout(resolve, 250));

    const tally = (v: Verdict) => [...verdicts.values()].filter((x) => x === v).length;
    const ackMs = [...acks.values()].map((a) => a.ms).sort((a, b) => a - b);
    const failedAcks = [...acks.values()].filter((a) => a.status !== 200);
    const refused = tally('refusedAtAck');
    const summary = {
      seed: SEED,
      asked: ops.length,
      applied:
        tally('applied') + tally('appliedUntold') + tally('appliedToldFailed') + tally('appliedToldInDoubt'),
      duplicated: tally('duplicated'),
      lost: tally('lost'),
      reportedFailed: tally('reportedFailed') + refused,
      refusedAtAck: refused,
      appliedButToldFailed: tally('appliedToldFailed'),
      appliedToldInDoubt: tally('appliedToldInDoubt'),
      appliedButUntold: tally('appliedUntold'),
      workerKills: kills,
      workerStarts: worker.starts,
      redisDownMs: redisUpAt - redisDownAt,
      faultsApplied: Object.fromEntries(faults.list().map((f) => [f.id, f.applied])),
      apiRequests: emulator.received.length,
      acksNot200: failedAcks.length,
      acksOver3s: ackMs.filter((ms) => ms > 3000).length,
      ackP50Ms: Math.round(ackMs[Math.floor(ackMs.length * 0.5)] ?? 0),
      ackP99Ms: Math.round(ackMs[Math.floor(ackMs.length * 0.99)] ?? 0),
      ackMaxMs: Math.round(ackMs.at(-1) ?? 0),
      drainedAfterS: Math.round(drainedAt / 100) / 10,
      byKind: Object.fromEntries(
        (['createPost', 'createComment', 'sendDm', 'resolvePost', 'unresolvePost'] as const).map((kind) => [
          kind,
          countBy(ops.filter((o) => o.kind === kind).map((o) => verdicts.get(o.index)!)),
        ]),
      ),
    };
    const problems = ops
      .filter((o) =>
        ['lost', 'duplicated', 'appliedUntold', 'appliedToldFailed'].includes(verdicts.get(o.index)!),
      )
      .slice(0, 30)
      .map((o) => ({
        op: o,
        verdict: verdicts.get(o.index),
        ack: acks.get(o.index),
        told: toldTexts(slack.responseUrlCalls).get(o.token) ?? [],
      }));
    writeFileSync(
      new URL('latest.json', OUT_DIR),
      `${JSON.stringify({ summary, chaos: chaosLog, problems }, null, 2)}\n`,
    );

    const table = [
      '| asked | applied | duplicated | lost | reported failed (of which refused at ack) | applied, told "may have gone through" | applied but told failed | applied, outcome untold |',
      '|---|---|---|---|---|---|---|---|',
      `| ${summary.asked} | ${summary.applied} | ${summary.duplicated} | ${summary.lost} | ${summary.reportedFailed} (${refused}) | ${summary.appliedToldInDoubt} | ${summary.appliedButToldFailed} | ${summary.appliedButUntold} |`,
    ].join('\n');
    process.stdout.write(
      `\nFault suite (seed ${SEED}): ${kills} worker kills, Redis down ${summary.redisDownMs} ms, ` +
        `${summary.apiRequests} API requests, drained after ${summary.drainedAfterS} s; acks: ` +
        `${summary.acksNot200} not 200, ${summary.acksOver3s} over 3 s, p50 ${summary.ackP50Ms} ms, ` +
        `p99 ${summary.ackP99Ms} ms, max ${summary.ackMaxMs} ms\n${table}\n` +
        `by kind: ${JSON.stringify(summary.byKind)}\n`,
    );
    if (problems.length > 0)
      process.stdout.write(`problems: ${JSON.stringify(problems, null, 1).slice(0, 6000)}\n`);

    expect(kills).toBe(KILLS);
    expect(summary.redisDownMs).toBeGreaterThan(0);
    expect(failedAcks, 'every command is answered 200').toEqual([]);
    expect(summary.duplicated, 'duplicated').toBe(0);
    expect(summary.lost, 'lost (neither applied nor reported failed)').toBe(0);
    expect(summary.asked).toBe(
      summary.applied + summary.duplicated + summary.lost + tally('reportedFailed') + refused,
    );
  }, 600_000);
});

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}
