/**
 * A durable step log kept in the job's progress, so an operation that runs again (a retry,
 * a worker killed mid-job, a stalled job) never repeats an effect that already happened.
 *
 * `once(name, run, recover)`:
 * - a step that finished returns its saved result without running again;
 * - a step that started but never recorded an end (the request may have reached the service)
 *   first asks `recover` whether the effect exists, and re-runs only if it does not;
 * - otherwise it records "started" durably (only if it has a `recover`: without one, a step that
 *   started and never ended simply runs again), runs, and records the result.
 */
import type { Job } from 'bullmq';
import { isCollabError } from '../collab/errors.ts';

export interface StepLog {
  /**
   * `refused`: the last send of a step with a recover was answered with a status that says it
   * was not applied (429, 4xx, 5xx) or never left (connection refused) — it is not in doubt.
   */
  steps: Record<string, { started: true; done?: true; value?: unknown; refused?: true }>;
  rateLimited?: number;
  notifiedRetry?: true;
  /** extra runs after the last attempt, to settle a step in doubt (worker.ts) */
  settleRuns?: number;
}

/** Steps that started, never ended, and may have taken effect (their answer was lost). */
export function stepsInDoubt(log: StepLog): string[] {
  return Object.entries(log.steps)
    .filter(([, step]) => step.started && !step.done && !step.refused)
    .map(([name]) => name);
}

export function readLog(job: Job): StepLog {
  const p = job.progress;
  if (p && typeof p === 'object' && 'steps' in p) return p as unknown as StepLog;
  return { steps: {} };
}

export async function writeLog(job: Job, log: StepLog): Promise<void> {
  await job.updateProgress(log as unknown as object);
}

export type Once = <T>(
  name: string,
  run: () => Promise<T>,
  recover?: () => Promise<T | undefined>,
) => Promise<T>;

export function stepRunner(job: Job): Once {
  return async function once<T>(name: string, run: () => Promise<T>, recover?: () => Promise<T | undefined>) {
    const log = readLog(job);
    const step = log.steps[name];
    if (step?.done) return step.value as T;
    if (step?.started && recover) {
      const found = await recover();
      if (found !== undefined) {
        log.steps[name] = { started: true, done: true, value: found };
        await writeLog(job, log);
        return found;
      }
    }
    // "Started" matters only to a step that can recover: one without a recover runs again anyway.
    if (recover) {
      log.steps[name] = { started: true };
      await writeLog(job, log);
    }
    let value: T;
    try {
      value = await run();
    } catch (error) {
      if (recover && isCollabError(error) && error.kind !== 'ambiguous') {
        const failed = readLog(job);
        failed.steps[name] = { started: true, refused: true };
        await writeLog(job, failed);
      }
      throw error;
    }
    const after = readLog(job);
    after.steps[name] = { started: true, done: true, value };
    await writeLog(job, after);
    return value;
  };
}
