/**
 * A durable step log kept in the job's progress, so an operation that runs again (a retry,
 * a worker killed mid-job, a stalled job) never repeats an effect that already happened.
 *
 * `once(name, run, recover)`:
 * - a step that finished returns its saved result without running again;
 * - a step that started but never recorded an end (the request may have reached the service)
 *   first asks `recover` whether the effect exists, and re-runs only if it does not;
 * - otherwise it records "started" durably, runs, and records the result.
 */
import type { Job } from 'bullmq';

export interface StepLog {
  steps: Record<string, { started: true; done?: true; value?: unknown }>;
  rateLimited?: number;
  notifiedRetry?: true;
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
    log.steps[name] = { started: true };
    await writeLog(job, log);
    const value = await run();
    const after = readLog(job);
    after.steps[name] = { started: true, done: true, value };
    await writeLog(job, after);
    return value;
  };
}
