/**
 * A redis-server of the test's own, on a free port, so killing it disturbs nobody else. By
 * default it runs as docs/operations.md tells production to: AOF on, `appendfsync always`,
 * `noeviction`, in a temp dir, so everything it acknowledged survives a SIGKILL and restart.
 * `settings` replace or add redis-server options (e.g. `{ appendonly: 'no' }`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForOutput } from '../../../src/sandbox/childOutput.ts';
import { freePort } from '../../../src/sandbox/redis.ts';
import { track, untrack } from './children.ts';

export interface OwnRedis {
  url: string;
  port: number;
  /** SIGKILL (a crash); resolves when the process is gone */
  kill(): Promise<void>;
  /** starts again on the same port and dir; resolves when it accepts connections */
  start(): Promise<void>;
  /** stops it and removes its dir */
  close(): Promise<void>;
}

const PRODUCTION_SETTINGS: Record<string, string> = {
  save: '',
  appendonly: 'yes',
  appendfsync: 'always',
  'maxmemory-policy': 'noeviction',
};

/** A setting of several words (`rename-command`) is given as an array. */
export async function startOwnRedis(settings: Record<string, string | string[]> = {}): Promise<OwnRedis> {
  const options = Object.entries({ ...PRODUCTION_SETTINGS, ...settings }).flatMap(([name, value]) => [
    `--${name}`,
    ...(Array.isArray(value) ? value : [value]),
  ]);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'collab-faults-redis-'));
  let child: ChildProcess | undefined;

  const start = async () => {
    const proc = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, ...options, '--daemonize', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    track(proc);
    child = proc;
    await waitForOutput(proc, /ready to accept connections/i, { what: 'redis-server', timeoutMs: 15_000 });
    proc.stdout?.resume();
    proc.stderr?.resume();
  };

  const kill = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });
    untrack(proc);
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    start,
    async close() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
