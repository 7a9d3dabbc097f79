/**
 * Finds a Redis for the sandbox: `REDIS_URL` if set, else 127.0.0.1:6379 if it answers, else a
 * private `redis-server` (no persistence) on a free port, stopped with the sandbox. The decision
 * is a pure function; probing and starting are the small impure helpers beside it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { delimiter, join } from 'node:path';
import { waitForOutput } from './childOutput.ts';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export const REDIS_HELP =
  'The sandbox needs Redis (6.2 or later) and found none: REDIS_URL is not set, nothing answers on ' +
  '127.0.0.1:6379, and there is no redis-server on PATH. Get one with one of:\n' +
  '  sudo apt-get install redis-server     (Debian, Ubuntu)\n' +
  '  brew install redis                    (macOS)\n' +
  '  docker run -p 6379:6379 redis         (anywhere with Docker)\n' +
  'or point REDIS_URL at a Redis you have, then run npm start again.';

export interface RedisFacts {
  /** REDIS_URL from the environment (blank counts as unset) */
  configuredUrl: string | undefined;
  /** whether 127.0.0.1:6379 answered PING */
  defaultAnswers: boolean;
  /** absolute path of `redis-server` on PATH, if any */
  serverBinary: string | undefined;
}

export type RedisChoice =
  | { kind: 'configured'; url: string }
  | { kind: 'default'; url: string }
  | { kind: 'private'; binary: string }
  | { kind: 'missing'; message: string };

/** The sandbox's choice of Redis, from what is known about this machine. */
export function chooseRedis(facts: RedisFacts): RedisChoice {
  const configured = facts.configuredUrl?.trim();
  if (configured) return { kind: 'configured', url: configured };
  if (facts.defaultAnswers) return { kind: 'default', url: DEFAULT_REDIS_URL };
  if (facts.serverBinary) return { kind: 'private', binary: facts.serverBinary };
  return { kind: 'missing', message: REDIS_HELP };
}

/** True if a Redis at host:port answers PING within `timeoutMs`. */
export function redisAnswers(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let reply = '';
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('latin1');
      // +PONG, or -NOAUTH / -ERR from a Redis that wants a password: someone answers either way.
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG') || reply.startsWith('-NOAUTH'));
    });
    socket.connect(port, host, () => socket.write('PING\r\n'));
  });
}

/** Absolute path of an executable on PATH, or undefined. */
export function findOnPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** A free TCP port on 127.0.0.1 (asked of the OS, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface PrivateRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts `redis-server` on a free port with nothing kept on disk; resolves when it logs that it
 * accepts connections (an event, not a sleep), rejects if it exits first. `settings` are options
 * given after those (the later wins), e.g. `['--dir', dir, '--appendonly', 'yes']` for a benchmark
 * of a Redis that keeps an AOF.
 */
export async function startPrivateRedis(
  binary: string,
  timeoutMs = 10_000,
  settings: readonly string[] = [],
): Promise<PrivateRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
      ...settings,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await waitForOutput(child, /ready to accept connections/i, { what: 'redis-server', timeoutMs }).catch(
    (error: unknown) => {
      child.kill('SIGTERM');
      throw error;
    },
  );
  // Keep draining its output so a chatty server never blocks on a full pipe.
  child.stdout?.resume();
  child.stderr?.resume();
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface ResolvedRedis {
  url: string;
  /** how it was found, for the start line */
  source: 'REDIS_URL' | 'default' | 'private';
  /** stops the private redis-server, if one was started */
  stop(): Promise<void>;
}

/** Applies {@link chooseRedis} to this machine; throws an Error with {@link REDIS_HELP} when there is none. */
export async function resolveRedis(env: Record<string, string | undefined>): Promise<ResolvedRedis> {
  const configuredUrl = env.REDIS_URL?.trim() || undefined;
  const choice = chooseRedis({
    configuredUrl,
    defaultAnswers: configuredUrl ? false : await redisAnswers('127.0.0.1', 6379),
    serverBinary: findOnPath('redis-server', env.PATH ?? ''),
  });
  switch (choice.kind) {
    case 'configured':
      return { url: choice.url, source: 'REDIS_URL', stop: async () => {} };
    case 'default':
      return { url: choice.url, source: 'default', stop: async () => {} };
    case 'private': {
      const started = await startPrivateRedis(choice.binary);
      return { url: started.url, source: 'private', stop: () => started.stop() };
    }
    case 'missing':
      throw new RedisMissingError(choice.message);
  }
}

export class RedisMissingError extends Error {
  override readonly name = 'RedisMissingError';
}
