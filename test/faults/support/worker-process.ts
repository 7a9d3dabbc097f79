/**
 * The worker role as a child process, exactly as production runs it:
 * `node --import tsx src/main.ts --role=worker`, configured by its environment.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { track } from './children.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface WorkerProcess {
  /** how many times it was started */
  readonly starts: number;
  start(): Promise<void>;
  /** SIGKILL at once; resolves when it is gone */
  kill(): Promise<void>;
  /** SIGTERM (a graceful stop), SIGKILL after 10 s */
  stop(): Promise<void>;
}

export function workerProcess(env: Record<string, string>, logPath?: string): WorkerProcess {
  let child: ChildProcess | undefined;
  let starts = 0;
  const log: WriteStream | undefined = logPath ? createWriteStream(logPath) : undefined;

  const gone = (proc: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) resolve();
      else proc.once('exit', () => resolve());
    });

  return {
    get starts() {
      return starts;
    },
    async start() {
      starts += 1;
      const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--role=worker'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      track(proc);
      child = proc;
      let seen = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`the worker did not start within 30 s:\n${seen.slice(-2000)}`));
        }, 30_000);
        const onData = (chunk: Buffer) => {
          seen += chunk.toString('utf8');
          if (seen.includes('collab-slack started')) {
            cleanup();
            resolve();
          }
        };
        const onExit = (code: number | null) => {
          cleanup();
          reject(new Error(`the worker exited (${String(code)}) while starting:\n${seen.slice(-2000)}`));
        };
        const cleanup = () => {
          clearTimeout(timer);
          proc.stdout?.off('data', onData);
          proc.stderr?.off('data', onData);
          proc.off('exit', onExit);
        };
        proc.stdout?.on('data', onData);
        proc.stderr?.on('data', onData);
        proc.once('exit', onExit);
      });
      for (const stream of [proc.stdout, proc.stderr]) {
        if (log) stream?.pipe(log, { end: false });
        else stream?.resume();
      }
    },
    async kill() {
      const proc = child;
      child = undefined;
      if (!proc) return;
      proc.kill('SIGKILL');
      await gone(proc);
    },
    async stop() {
      const proc = child;
      child = undefined;
      if (!proc) return;
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      proc.kill('SIGTERM');
      await gone(proc);
      clearTimeout(timer);
      log?.end();
    },
  };
}
