/**
 * `npm start` without credentials starts the sandbox and prints one line with the console's URL;
 * SIGTERM stops it. The process group is ours: it is killed by its id, nothing else.
 *
 * Each start gets a Redis of its own: a sandbox forgets earlier sandbox runs' keys as it starts,
 * and on the shared Redis that would be those of a sandbox someone is running beside the tests.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath, freePort, type PrivateRedis, startPrivateRedis } from '../src/sandbox/redis.ts';
import { SANDBOX_PREFIX } from '../src/sandbox/run.ts';
import { connectRedis, type Redis, whenReady } from '../src/store/redis.ts';
import { REDIS_URL } from './support/harness.ts';

let child: ChildProcess | undefined;
let own: PrivateRedis | undefined;
/** The shared Redis, with a key where a running sandbox would keep one. */
let shared: Redis | undefined;
const canary = `${SANDBOX_PREFIX}:test-canary-${randomBytes(5).toString('hex')}`;

beforeAll(async () => {
  const binary = findOnPath('redis-server');
  if (!binary) throw new Error('redis-server is not on PATH');
  own = await startPrivateRedis(binary);
  shared = connectRedis(REDIS_URL, 'producer');
  await whenReady(shared);
  await shared.set(canary, 'a sandbox running beside the tests', 'EX', 600);
});

afterAll(async () => {
  await shared?.del(canary);
  shared?.disconnect();
  await own?.stop();
});

afterEach(async () => {
  const running = child;
  child = undefined;
  if (running?.pid === undefined || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  process.kill(-running.pid, 'SIGKILL');
  await exited;
});

/**
 * Runs `npm start` with the environment of this process less the variables `strip` matches, plus
 * `extra`; answers once it printed its start line (or rejects with its stderr if it exits first).
 */
async function startNpm(
  strip: RegExp,
  extra: NodeJS.ProcessEnv,
): Promise<{ started: ChildProcess; line: string }> {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!strip.test(name)) env[name] = value;
  child = spawn('npm', ['start', '--silent'], {
    env: { ...env, LOG_LEVEL: 'silent', REDIS_URL: own!.url, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const started = child;
  let stderr = '';
  started.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const line = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    started.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const found = stdout.split('\n').find((l) => l.startsWith('collab-slack sandbox:'));
      if (found) resolve(found);
    });
    started.once('exit', (code) => reject(new Error(`npm start exited (${String(code)}): ${stderr}`)));
  });
  return { started, line };
}

describe('npm start without credentials', () => {
  it('starts the sandbox, prints the console line, and stops on SIGTERM', async () => {
    const port = await freePort();
    const { started, line } = await startNpm(/^(SLACK_|COLLAB_|QUEUE_PREFIX$|PORT$|ROLE$)/, {
      PORT: String(port),
    });
    expect(line).toMatch(
      new RegExp(
        `^collab-slack sandbox: open http://127\\.0\\.0\\.1:${port} — local Slack stand-in \\+ emulated collaboration API \\(.*Redis .+\\)$`,
      ),
    );
    expect(line).toContain(`Redis 127.0.0.1:${own!.port}`);
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('collab-slack sandbox');
    // The sandbox's keys went to its own Redis: one running on the shared Redis keeps its own.
    expect(await shared!.exists(canary)).toBe(1);

    const exited = new Promise<number | null>((resolve) => started.once('exit', resolve));
    process.kill(-started.pid!, 'SIGTERM');
    await exited;
    child = undefined;
    // Stopped: the port is free again.
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  }, 30_000);

  it('SANDBOX=collab pairs the configured Slack with the emulator, and the start line says so', async () => {
    const port = await freePort();
    const { line } = await startNpm(/^(SLACK_|COLLAB_|QUEUE_PREFIX$|PORT$|ROLE$|SANDBOX$|NODE_ENV$)/, {
      PORT: String(port),
      SANDBOX: 'collab',
      SLACK_BOT_TOKEN: 'xoxb-test-sandbox-collab',
      SLACK_SIGNING_SECRET: 'test-signing-sandbox',
      SLACK_BOT_USER_ID: 'U_BOT',
    });
    expect(line).toContain(`Slack requests to http://127.0.0.1:${port}/slack/events`);
    expect(line).toContain('real Slack + emulated collaboration API (SANDBOX=collab)');
  }, 30_000);
});
