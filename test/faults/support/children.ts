/**
 * Every process the fault suite spawns is tracked here and killed when the test process exits,
 * however it exits (a failed assertion, a timeout, Ctrl-C), so nothing outlives a run.
 */
import type { ChildProcess } from 'node:child_process';

const live = new Set<ChildProcess>();
let installed = false;

function killAll(): void {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  live.clear();
}

export function track(child: ChildProcess): void {
  if (!installed) {
    installed = true;
    process.once('exit', killAll);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        killAll();
        process.exit(1);
      });
    }
  }
  live.add(child);
  child.once('exit', () => live.delete(child));
}

export function untrack(child: ChildProcess): void {
  live.delete(child);
}

/** Kills whatever is still alive (afterAll). */
export function killTracked(): void {
  killAll();
}
