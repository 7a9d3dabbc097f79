/**
 * A role of the bot as a child process, started the way docs/operations.md tells an operator to:
 * `node --import tsx src/main.ts` with `ROLE=web` or `ROLE=worker` in its environment.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { waitForOutput } from '../../../src/sandbox/childOutput.ts';
import { track } from './children.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface RoleProcess {
  /** how many times it was started */
  readonly starts: number;
  /** the port it listens on (its start-up line says), once started */
  readonly port: number | undefined;
  start(): Promise<void>;
  /** SIGKILL at once; resolves when it is gone */
  kill(): Promise<void>;
  /** SIGTERM (a graceful stop), SIGKILL after 10 s */
  stop(): Promise<void>;
  /** resolves with the first line of its output since its last start that matches */
  logged(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

export function roleProcess(
  role: 'web' | 'worker',
  env: Record<string, string>,
  logPath?: string,
): RoleProcess {
  let child: ChildProcess | undefined;
  let starts = 0;
  let port: number | undefined;
  /** its output since its last start, and who waits for a line of it */
  let output = '';
  const waiting = new Set<() => void>();
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
    get port() {
      return port;
    },
    async start() {
      starts += 1;
      const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, ROLE: role },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      track(proc);
      child = proc;
      output = '';
      const onData = () => {
        const found = /"port":(\d+)[^\n]*collab-slack started|collab-slack started[^\n]*"port":(\d+)/.exec(
          output,
        );
        if (found) port = Number(found[1] ?? found[2]);
      };
      proc.stdout?.on('data', (chunk: Buffer) => {
        // What a killed child had on its way belongs to no later start.
        if (child !== proc) return;
        output += chunk.toString('utf8');
        for (const check of waiting) check();
      });
      proc.stdout?.on('data', onData);
      await waitForOutput(proc, /collab-slack started/, { what: `the ${role} role`, timeoutMs: 30_000 });
      proc.stdout?.off('data', onData);
      if (log) proc.stdout?.pipe(log, { end: false });
      if (log) proc.stderr?.pipe(log, { end: false });
      else proc.stderr?.resume();
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
    logged(pattern, timeoutMs = 30_000) {
      return new Promise<string>((resolve, reject) => {
        const check = () => {
          const line = output.split('\n').find((l) => pattern.test(l));
          if (line === undefined) return;
          done();
          resolve(line);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`the ${role} role logged nothing matching ${pattern} within ${timeoutMs} ms`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiting.delete(check);
        };
        waiting.add(check);
        check();
      });
    },
  };
}
