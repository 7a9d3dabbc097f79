/**
 * The start-up check of Redis's persistence and eviction settings (src/store/durability.ts),
 * against redis-server processes of the test's own: a production start against a Redis that
 * would lose or evict queued work exits 1 naming the setting and its fix; the override starts
 * anyway; `/readyz` reports the settings; a Redis that forbids CONFIG is read through INFO.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDurability, readDurability } from '../../src/store/durability.ts';
import { connectRedis, whenReady } from '../../src/store/redis.ts';
import { killTracked, track } from '../faults/support/children.ts';
import { type OwnRedis, startOwnRedis } from '../faults/support/redis-server.ts';

interface Started {
  code: number | null;
  stderr: string;
  /** the port it listens on, when it started */
  port?: number;
  stop(): void;
}

/**
 * Starts the worker role as an operator would (`node --import tsx src/main.ts --role=worker`);
 * resolves when it exits or says it started.
 */
function startWorker(redisUrl: string, env: Record<string, string>): Promise<Started> {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(SLACK_|COLLAB_|QUEUE_PREFIX$|PORT$|ROLE$|NODE_ENV$|REDIS_)/.test(name)) clean[name] = value;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--role=worker'], {
    env: {
      ...clean,
      SLACK_SIGNING_SECRET: 'durability-test-secret',
      SLACK_BOT_TOKEN: 'xoxb-durability-test',
      SLACK_BOT_USER_ID: 'U_BOT',
      COLLAB_API_URL: 'https://collab.example.com',
      COLLAB_API_KEY: 'durability-test-key',
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: `durability-${randomBytes(4).toString('hex')}`,
      PORT: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  return new Promise((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const line = stdout.split('\n').find((l) => l.includes('collab-slack started'));
      if (line) resolve({ code: null, stderr, port: (JSON.parse(line) as { port: number }).port, stop });
    });
    child.once('exit', (code) => resolve({ code, stderr, stop }));
  });
}

describe('Redis persistence and eviction, checked at start', () => {
  const servers: OwnRedis[] = [];
  const own = async (settings: Record<string, string | string[]>) => {
    const server = await startOwnRedis(settings);
    servers.push(server);
    return server;
  };
  afterAll(async () => {
    for (const server of servers) await server.close();
    killTracked();
  });

  it('production, no persistence: exits 1 naming appendonly, its fix and the override', async () => {
    const redis = await own({ appendonly: 'no', save: '' });
    const started = await startWorker(redis.url, { NODE_ENV: 'production' });
    expect(started.code).toBe(1);
    expect(started.stderr).toContain('appendonly is "no"');
    expect(started.stderr).toContain('Fix: appendonly yes');
    expect(started.stderr).toContain('REDIS_ALLOW_VOLATILE=true');
  }, 60_000);

  it('production, an evicting policy: exits 1 naming maxmemory-policy and noeviction', async () => {
    const redis = await own({ 'maxmemory-policy': 'allkeys-lru' });
    const started = await startWorker(redis.url, { NODE_ENV: 'production' });
    expect(started.code).toBe(1);
    expect(started.stderr).toContain('maxmemory-policy is "allkeys-lru"');
    expect(started.stderr).toContain('Fix: maxmemory-policy noeviction');
  }, 60_000);

  it('the override starts anyway, and /readyz shows the settings and what they risk', async () => {
    const redis = await own({ appendonly: 'no', save: '', 'maxmemory-policy': 'allkeys-lru' });
    const started = await startWorker(redis.url, { NODE_ENV: 'production', REDIS_ALLOW_VOLATILE: 'true' });
    try {
      expect(started.code).toBeNull();
      const res = await request(`http://127.0.0.1:${started.port}/readyz`);
      const body = (await res.body.json()) as {
        redisSettings: { source: string; appendonly: string; maxmemoryPolicy: string; problems: string[] };
      };
      expect(body.redisSettings).toMatchObject({
        source: 'config',
        appendonly: 'no',
        maxmemoryPolicy: 'allkeys-lru',
      });
      expect(body.redisSettings.problems).toHaveLength(2);
    } finally {
      started.stop();
    }
  }, 60_000);

  it('a production Redis as docs/operations.md says (AOF, noeviction) starts; /readyz has no problems', async () => {
    const redis = await own({});
    const started = await startWorker(redis.url, { NODE_ENV: 'production' });
    try {
      expect(started.code).toBeNull();
      const res = await request(`http://127.0.0.1:${started.port}/readyz`);
      const body = (await res.body.json()) as { redisSettings: Record<string, unknown> };
      expect(body.redisSettings).toMatchObject({
        appendonly: 'yes',
        appendfsync: 'always',
        maxmemoryPolicy: 'noeviction',
        problems: [],
        warnings: [],
      });
    } finally {
      started.stop();
    }
  }, 60_000);

  it('everysec starts in production, warned with what it risks and its fix', async () => {
    const redis = await own({ appendfsync: 'everysec' });
    const started = await startWorker(redis.url, { NODE_ENV: 'production' });
    try {
      expect(started.code).toBeNull();
      const res = await request(`http://127.0.0.1:${started.port}/readyz`);
      const body = (await res.body.json()) as { redisSettings: { problems: string[]; warnings: string[] } };
      expect(body.redisSettings.problems).toEqual([]);
      const warning = body.redisSettings.warnings.join(' ');
      expect(warning).toContain('a crash of Redis or its machine can lose');
      expect(warning).toContain('Fix: appendfsync always');
    } finally {
      started.stop();
    }
  }, 60_000);

  it('outside production the same Redis is a warning, not a refusal', async () => {
    const redis = await own({ appendonly: 'no', save: '' });
    const started = await startWorker(redis.url, {});
    started.stop();
    expect(started.code).toBeNull();
  }, 60_000);

  it('the sandbox (volatile by design) is not warned; anything else outside production is', async () => {
    const redis = await own({ appendonly: 'no', save: '' });
    const client = connectRedis(redis.url, 'producer');
    try {
      await whenReady(client, 10_000);
      const warnings = (volatileByDesign: boolean) => {
        const seen: string[] = [];
        const logger = { warn: (_: object, msg: string) => void seen.push(msg) };
        return checkDurability(client, {
          production: false,
          allowVolatile: false,
          volatileByDesign,
          logger,
        }).then(() => seen);
      };
      expect(await warnings(true)).toEqual([]);
      expect((await warnings(false)).join(' ')).toContain('appendonly');
    } finally {
      client.disconnect();
    }
  }, 60_000);

  it('a managed Redis that forbids CONFIG is read through INFO', async () => {
    const redis = await own({ 'rename-command': ['CONFIG', ''], 'maxmemory-policy': 'volatile-lru' });
    const client = connectRedis(redis.url, 'producer');
    try {
      await whenReady(client, 10_000);
      const read = await readDurability(client);
      expect(read.source).toBe('info');
      expect(read.appendonly).toBe('yes');
      expect(read.maxmemoryPolicy).toBe('volatile-lru');
      expect(read.problems.join(' ')).toContain('maxmemory-policy');
      expect(read.warnings.join(' ')).toContain('forbids CONFIG');
    } finally {
      client.disconnect();
    }
  }, 60_000);
});
