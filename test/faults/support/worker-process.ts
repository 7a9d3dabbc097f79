/**
 * The worker role as a child process, exactly as production runs it:
 * `node --import tsx src/main.ts --role=worker`, configured by its environment.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { waitForOutput } from '../../../src/sandbox/childOutput.ts';
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
      await waitForOutput(proc, /collab-slack started/, { what: 'the worker', timeoutMs: 30_000 });
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
