/** Starting the bot (or the baseline) as a child process, the way it runs in production. */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * How a child runs the project's TypeScript: through tsx (a loader that transforms on import), or
 * the JavaScript that `npm run build` emits into dist/ (what the Dockerfile runs).
 */
export type Runtime = 'tsx' | 'js';

export function parseRuntime(value: string): Runtime {
  if (value !== 'tsx' && value !== 'js') throw new Error(`--runtime must be tsx or js, not ${value}`);
  if (value === 'js' && !existsSync(`${ROOT}dist/main.js`)) {
    throw new Error('--runtime js needs the build: run `npm run build` first');
  }
  return value;
}

/** `src/main.ts` under tsx, `dist/main.js` under node. Entries outside src/ always run under tsx. */
function entryFor(entry: string, runtime: Runtime): { file: string; execArgv: string[] } {
  if (runtime === 'js' && entry.startsWith('src/')) {
    return { file: `${ROOT}dist/${entry.slice('src/'.length).replace(/\.ts$/, '.js')}`, execArgv: [] };
  }
  return { file: `${ROOT}${entry}`, execArgv: ['--import', 'tsx'] };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The configuration of a bot process in a benchmark: the Slack stand-in, the emulator and a
 * Redis of the benchmark's, under its own queue prefix; `extra` adds or replaces variables.
 */
export function botEnv(
  at: { slackUrl: string; emulator: { url: string; apiKey: string }; redisUrl: string; prefix: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    SLACK_SIGNING_SECRET: 'bench-secret',
    SLACK_BOT_TOKEN: 'xoxb-test-bench',
    SLACK_BOT_USER_ID: 'U_BOT',
    SLACK_API_URL: at.slackUrl,
    COLLAB_API_URL: at.emulator.url,
    COLLAB_API_KEY: at.emulator.apiKey,
    REDIS_URL: at.redisUrl,
    QUEUE_PREFIX: at.prefix,
    ...extra,
  };
}

/** Forks an entry; resolves once `/slack/events` answers. */
export async function startChild(
  entry: string,
  args: string[],
  env: Record<string, string>,
  port: number,
  runtime: Runtime = 'tsx',
  nodeArgs: string[] = [],
) {
  const { file, execArgv } = entryFor(entry, runtime);
  const child = fork(file, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    execArgv: [...nodeArgs, ...execArgv],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST', body: '' })
      .then(() => true)
      .catch(() => false);
    if (up) return child;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${entry} did not start`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Forks the worker role; resolves once it logs that it started. */
export async function startWorkerChild(
  env: Record<string, string>,
  runtime: Runtime,
  nodeArgs: string[] = [],
): Promise<ChildProcess> {
  const { file, execArgv } = entryFor('src/main.ts', runtime);
  const child = fork(file, ['--role=worker'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    execArgv: [...nodeArgs, ...execArgv],
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the worker did not start:\n${seen.slice(-1000)}`));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (seen.includes('collab-slack started')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited (${String(code)}) while starting:\n${seen.slice(-1000)}`));
    });
  });
  child.removeAllListeners('exit');
  return child;
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

/** Resident set size of a process in MB, from /proc. */
export async function rssMb(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = status.match(/VmRSS:\s+(\d+)/)?.[1];
  return kb ? Number(kb) / 1024 : undefined;
}

/** CPU time (user + system) a process has used so far, in ms; from /proc (Linux). */
export async function cpuMs(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // The fields after the command name (which may hold spaces) start at state: utime is 14th, stime 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks * 10 : undefined;
}

/** Samples the peak RSS of some processes until stopped. */
export function rssSampler(pids: Array<number | undefined>, everyMs = 200) {
  const peaks = pids.map(() => 0);
  const timer = setInterval(() => {
    pids.forEach((pid, i) => {
      void rssMb(pid).then((mb) => {
        if (mb !== undefined) peaks[i] = Math.max(peaks[i] ?? 0, mb);
      });
    });
  }, everyMs);
  return {
    stop(): number[] {
      clearInterval(timer);
      return peaks;
    },
  };
}

/** The machine and the commit a report was measured on, as BENCHMARKS.md's table gives them. */
export async function machineLine(): Promise<string> {
  const { cpus, totalmem, loadavg } = await import('node:os');
  const cpu = cpus()[0]?.model ?? 'unknown cpu';
  return `${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, commit ${commitOf()}, load average before the run ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
}

/** The checkout's commit, marked when tracked files differ from it (what ran is not that commit). */
function commitOf(): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  try {
    const head = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') === ''
      ? head
      : `${head} with uncommitted changes`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}
