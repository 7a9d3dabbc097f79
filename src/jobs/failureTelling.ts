/**
 * Telling a person that their operation failed, once. The telling is marked in the job's log
 * before the message goes out (`failedTold`), so that no later run of the job tells anything else.
 *
 * A worker killed between the mark and the message would leave the person told nothing. Where
 * telling it again replaces the same note (a slash command's outcome, on its response_url), the
 * message rides on the mark (`failedTelling`) until it is out: whoever looks at the job next — its
 * next run after a stall, or the sweep of stalled-out jobs — tells it again, and the person still
 * sees one message. Elsewhere a second telling would show twice, and the mark alone stands.
 */
import type { Logger } from '../logger.ts';
import type { Origin } from '../operations/schemas.ts';
import { type Outcomes, replacesAck } from './delivery.ts';
import type { StepLog } from './steps.ts';

/** Writes the job's log: fenced by a run that holds the job, plain for a failed job. */
export type WriteLog = (log: StepLog) => Promise<unknown>;

/** Marks the failure told, tells it, and takes its message off the mark once it is out. */
export async function tellFailure(
  outcomes: Outcomes | undefined,
  write: WriteLog,
  log: StepLog,
  origin: Origin,
  text: string,
  logger: Logger,
): Promise<void> {
  const again = outcomes !== undefined && replacesAck(origin);
  const told: StepLog = { ...log, failedTold: true };
  await write(again ? { ...told, failedTelling: text } : told);
  if (!outcomes) return;
  await outcomes.deliver(origin, { text }, { replaceOriginal: replacesAck(origin) });
  if (again) await takeOff(write, told, logger);
}

/**
 * A failure marked told whose message may not have gone out: told again, onto the same note.
 * Answers whether there was one.
 */
export async function retellFailure(
  outcomes: Outcomes | undefined,
  write: WriteLog,
  log: StepLog,
  origin: Origin,
  logger: Logger,
): Promise<boolean> {
  const { failedTelling: text, ...told } = log;
  if (!text) return false;
  await outcomes?.deliver(origin, { text }, { replaceOriginal: true });
  await takeOff(write, told, logger);
  logger.info('told again a failure whose telling was cut short');
  return true;
}

/** Best effort: a message left on the mark is told again by the next look, onto the same note. */
async function takeOff(write: WriteLog, told: StepLog, logger: Logger): Promise<void> {
  await write(told).catch((error: unknown) =>
    logger.warn({ err: error }, 'could not mark a failure as told in full'),
  );
}
