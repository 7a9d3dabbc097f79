/**
 * SIGTERM during an active job: `src/main.ts` runs in a child process; the emulator holds the
 * job's API call (latency); SIGTERM arrives while it is in flight. The process stops taking
 * requests, lets the job finish, exits 0 — and the job is completed, its post created once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/sandbox/emulator/index.ts';
import { type SlackStandIn, slashCommandBody, startSlackStandIn } from '../../src/sandbox/slack/index.ts';
import { connectRedis, deleteKeys } from '../../src/store/redis.ts';
import { REDIS_URL } from '../support/harness.ts';
import { postToBolt } from '../support/slack-client.ts';

const root = new URL('../..', import.meta.url).pathname;
let emulator: Emulator;
let slack: SlackStandIn;
const prefix = `test-sigterm-${randomBytes(6).toString('hex')}`;
const signingSecret = `test-signing-${randomBytes(8).toString('hex')}`;

beforeAll(async () => {
  emulator = await startEmulator();
  slack = await startSlackStandIn();
});
afterAll(async () => {
  const redis = connectRedis(REDIS_URL, 'producer');
  const queue = new Queue('operations', { connection: redis, prefix });
  await queue.obliterate({ force: true }).catch(() => {});
  await queue.close();
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
  await emulator?.close();
  await slack?.close();
});

/** Starts main.ts; resolves with the child and its port once it logs that it started. */
function startMain(): Promise<{ child: ChildProcess; port: number; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--role', 'all'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_BOT_TOKEN: 'xoxb-test-sigterm',
      SLACK_BOT_USER_ID: 'U_BOT',
      SLACK_API_URL: slack.url,
      COLLAB_API_URL: emulator.url,
      COLLAB_API_KEY: emulator.apiKey,
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      PORT: '0',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === 'collab-slack started' && entry.port) resolve({ child, port: entry.port, exited });
      } catch {
        // not a log line
      }
    });
    void exited.then((code) => reject(new Error(`main.ts exited (${code}) before starting: ${stderr}`)));
  });
}

describe('graceful shutdown', () => {
  it('finishes the active job on SIGTERM and exits 0; the job is never lost', async () => {
    const { child, port, exited } = await startMain();
    emulator.faults.setLatency(1500, 'POST /v2/posts');
    const inFlight = new Promise<void>((resolve) =>
      emulator.events.on('request', (request) => {
        if (request.route === 'POST /v2/posts') resolve();
      }),
    );
    const title = `Survives SIGTERM ${randomBytes(3).toString('hex')}`;
    const ack = await postToBolt(
      `http://127.0.0.1:${port}`,
      signingSecret,
      'command',
      slashCommandBody({
        command: '/collab',
        text: `post #engineering ${title} | body`,
        user_id: 'U_ADA',
        channel_id: 'C_GENERAL',
        team_id: 'T_LOCAL',
        response_url: slack.responseUrl('sigterm'),
        trigger_id: `trigger-${prefix}`,
      }),
    );
    expect(ack.status).toBe(200);
    await inFlight;
    child.kill('SIGTERM');
    expect(await exited).toBe(0);

    const created = [...emulator.org().posts.values()].filter((p) => p.title === title);
    expect(created).toHaveLength(1);
    const redis = connectRedis(REDIS_URL, 'producer');
    const queue = new Queue('operations', { connection: redis, prefix });
    const completed = await queue.getJobs(['completed']);
    const job = completed.find((j) => j.name === 'createPost');
    expect(job).toBeDefined();
    expect(await queue.getJobCounts('waiting', 'active', 'delayed', 'failed')).toEqual({
      waiting: 0,
      active: 0,
      delayed: 0,
      failed: 0,
    });
    await queue.close();
    redis.disconnect();
  }, 30_000);
});
