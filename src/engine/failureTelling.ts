/**
 * Telling a person that their operation failed, once: marked in the log (`failedTold`) before it
 * is told, so that no later run tells anything else. Where telling it again replaces the same note
 * (a slash command), the message rides on the mark until it is out, and whoever looks at the job
 * next tells it again (docs/engine.md, "Telling once").
 */
import type { Logger } from '../logger.ts';
import type { Origin } from '../operations/schemas.ts';
import { type Outcomes, replacesAck } from './delivery.ts';
import type { FailedTelling, StepLog } from './stepLog.ts';

/** Writes the job's log: fenced by a run that holds the job, plain for a failed job. */
export type WriteLog = (log: StepLog) => Promise<unknown>;

/** Where a failure is told, and what keeps it. */
export interface TellingScope {
  /** undefined when the workspace is gone: nothing is told, the rest is kept */
  outcomes: Outcomes | undefined;
  write: WriteLog;
  /** adds the outcome to the person's recent operations (never throws) */
  remember: (outcome: FailedTelling['outcome'], reason: string) => Promise<void>;
  logger: Logger;
}

/** Marks the failure told, tells it, takes its message off the mark, and adds it to App Home. */
export async function tellFailure(
  scope: TellingScope,
  log: StepLog,
  origin: Origin,
  telling: FailedTelling,
): Promise<void> {
  const { outcomes, write } = scope;
  const again = outcomes !== undefined && replacesAck(origin);
  const told: StepLog = { ...log, failedTold: true };
  await write(again ? { ...told, failedTelling: telling } : told);
  if (outcomes) {
    await outcomes.deliver(origin, { text: telling.text }, { replaceOriginal: replacesAck(origin) });
    if (again) await takeOff(scope, told);
  }
  await scope.remember(telling.outcome, telling.reason);
}

/**
 * A failure marked told whose message may not have gone out: told again, onto the same note.
 * Answers whether there was one.
 */
export async function retellFailure(scope: TellingScope, log: StepLog, origin: Origin): Promise<boolean> {
  const { failedTelling: telling, ...told } = log;
  if (!telling) return false;
  await scope.outcomes?.deliver(origin, { text: telling.text }, { replaceOriginal: true });
  await takeOff(scope, told);
  await scope.remember(telling.outcome, telling.reason);
  scope.logger.info('told again a failure whose telling was cut short');
  return true;
}

/** Best effort: a message left on the mark is told again by the next look, onto the same note. */
async function takeOff(scope: TellingScope, told: StepLog): Promise<void> {
  await scope
    .write(told)
    .catch((error: unknown) => scope.logger.warn({ err: error }, 'could not mark a failure as told in full'));
}
