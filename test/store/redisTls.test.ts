/**
 * Redis in production: a `rediss://` URL (TLS) with an ACL user and password works for the whole
 * bot (web and worker roles, BullMQ included), and so does a plain `redis://user:password@` URL.
 * A throwaway CA and server certificate are made with openssl in a temporary directory; the
 * redis-server is our own, on free loopback ports, stopped by its pid.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForOutput } from '../../src/sandbox/childOutput.ts';
import { freePort } from '../../src/sandbox/redis.ts';
import { connectRedis, whenReady } from '../../src/store/redis.ts';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'collab-slack-redis-tls-'));
const user = 'collab-test';
const password = `test-redis-${randomBytes(8).toString('hex')}`;
let server: ChildProcess | undefined;
let port = 0;
let tlsPort = 0;
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  const openssl = (args: string[]) => run('openssl', args, { cwd: dir });
  await openssl([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '1',
    '-subj',
    '/CN=collab-slack test CA',
  ]);
  await openssl([
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'redis.key',
    '-out',
    'redis.csr',
    '-subj',
    '/CN=127.0.0.1',
  ]);
  writeFileSync(file('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await openssl([
    'x509',
    '-req',
    '-in',
    'redis.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'redis.crt',
    '-days',
    '1',
    '-extfile',
    'san.ext',
  ]);
  port = await freePort();
  tlsPort = await freePort();
  server = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--tls-port',
      String(tlsPort),
      '--tls-cert-file',
      file('redis.crt'),
      '--tls-key-file',
      file('redis.key'),
      '--tls-ca-cert-file',
      file('ca.crt'),
      '--tls-auth-clients',
      'no',
      '--bind',
      '127.0.0.1',
      // Persistent, as production requires (the bot refuses a Redis that would lose queued work).
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      // Only the ACL user may do anything; the default user is off.
      '--user',
      'default',
      'off',
      '--user',
      user,
      'on',
      `>${password}`,
      '~*',
      '&*',
      '+@all',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await waitForOutput(server, /ready to accept connections/i, {
    what: 'redis-server (TLS)',
    timeoutMs: 10_000,
  });
  server.stdout?.resume();
  server.stderr?.resume();
}, 60_000);

afterAll(async () => {
  const running = server;
  if (running && running.exitCode === null) {
    const exited = new Promise((done) => running.once('exit', done));
    running.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('Redis with ACL credentials', () => {
  it('a redis://user:password@ URL connects both kinds of connection; without credentials nothing is allowed', async () => {
    const url = `redis://${user}:${password}@127.0.0.1:${port}`;
    for (const role of ['producer', 'worker'] as const) {
      const redis = connectRedis(url, role);
      try {
        await whenReady(redis, 5000);
        await redis.set('test-acl:key', role);
        expect(await redis.get('test-acl:key')).toBe(role);
      } finally {
        redis.disconnect();
      }
    }
    const anonymous = connectRedis(`redis://127.0.0.1:${port}`, 'producer');
    try {
      await expect(anonymous.ping()).rejects.toThrow();
    } finally {
      anonymous.disconnect();
    }
  });
});

describe('Redis over TLS (rediss://)', () => {
  it('the bot starts on a rediss:// URL with an ACL user, trusting the CA given in NODE_EXTRA_CA_CERTS, and is ready', async () => {
    const httpPort = await freePort();
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env)) {
      if (!/^(SLACK_|COLLAB_|REDIS_URL$|QUEUE_PREFIX$|PORT$|ROLE$|SANDBOX$|NODE_ENV$)/.test(name))
        env[name] = value;
    }
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--role=all'], {
      cwd: root,
      env: {
        ...env,
        NODE_ENV: 'production',
        NODE_EXTRA_CA_CERTS: file('ca.crt'),
        REDIS_URL: `rediss://${user}:${password}@127.0.0.1:${tlsPort}`,
        QUEUE_PREFIX: `test-tls-${randomBytes(4).toString('hex')}`,
        PORT: String(httpPort),
        SLACK_BOT_TOKEN: 'xoxb-test-tls',
        SLACK_SIGNING_SECRET: 'test-signing-tls',
        SLACK_BOT_USER_ID: 'U_BOT',
        COLLAB_API_URL: 'https://collab.example.com',
        COLLAB_API_KEY: 'test-key-tls',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    try {
      await waitForOutput(child, /collab-slack started/, { what: 'the bot', timeoutMs: 30_000 });
      const ready = await fetch(`http://127.0.0.1:${httpPort}/readyz`);
      expect(ready.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    expect(output).not.toContain(password);
  }, 60_000);
});
