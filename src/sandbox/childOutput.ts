/**
 * Waiting for a child process to say it is ready: resolves when its output (stdout and stderr
 * together) matches, rejects if it exits first or stays silent past the deadline. An event, not a
 * sleep. Used for the sandbox's private redis-server and by the tests that run processes.
 */
import type { ChildProcess } from 'node:child_process';

export interface WaitForOutputOptions {
  /** what the process is, for the error message */
  what: string;
  timeoutMs: number;
}

export function waitForOutput(
  child: ChildProcess,
  ready: RegExp,
  options: WaitForOutputOptions,
): Promise<void> {
  let output = '';
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(
        new Error(`${options.what} did not start within ${options.timeoutMs} ms:\n${output.slice(-2000)}`),
      );
    }, options.timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (ready.test(output)) {
        cleanup();
        resolve();
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`${options.what} exited (${String(code)}) while starting:\n${output.slice(-2000)}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}
