/**
 * The process-level safety net, in a process of its own: an unhandled rejection is logged and
 * the process keeps serving; an uncaught exception is logged, the process stops (its stop runs)
 * and exits with code 1 for its supervisor — never a silent death.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('./support/safetyNetChild.ts', import.meta.url));
let child: ChildProcess | undefined;

afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
});

interface Run {
  /** resolves with the first stdout line matching */
  line(pattern: RegExp): Promise<string>;
  exited: Promise<number | null>;
}

function run(mode: string): Run {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, mode], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  let pending = '';
  proc.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      lines.push(line);
      for (const w of waiters.filter((w) => w.pattern.test(line))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  proc.stderr?.resume();
  return {
    line: (pattern) =>
      new Promise((resolve) => {
        const found = lines.find((l) => pattern.test(l));
        if (found) resolve(found);
        else waiters.push({ pattern, resolve });
      }),
    exited: new Promise((resolve) => proc.once('exit', (code) => resolve(code))),
  };
}

describe('the process safety net', () => {
  it('logs an unhandled rejection and keeps serving', async () => {
    const r = run('rejection');
    const port = (await r.line(/^listening \d+$/)).split(' ')[1];
    const logged = JSON.parse(await r.line(/unhandled promise rejection/)) as Record<string, unknown>;
    expect(logged.level).toBe(50);
    expect(JSON.stringify(logged.err)).toContain('a rejection nobody handled');
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    expect(await answer.text()).toBe('still here');
    expect(child?.exitCode).toBeNull();
  });

  it('logs an uncaught exception, stops, and exits with code 1', async () => {
    const r = run('exception');
    const logged = JSON.parse(await r.line(/uncaught exception/)) as Record<string, unknown>;
    expect(logged.level).toBe(60);
    expect(JSON.stringify(logged.err)).toContain('thrown outside any handler');
    await r.line(/^stopped$/);
    expect(await r.exited).toBe(1);
  });
});
