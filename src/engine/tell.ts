/**
 * Telling a job's outcome once across re-runs (a crash after telling must not tell twice): the
 * telling is a step of the log, marked started before the message goes out (docs/engine.md,
 * "Telling once").
 */
import type { Origin } from '../operations/schemas.ts';
import { type Delivered, type Outcomes, replacesAck, type SlackMessage } from './delivery.ts';
import type { Rider } from './runLog.ts';
import { TELL_STEP } from './stepLog.ts';
import type { Once } from './steps.ts';

/**
 * Delivers a job's outcome, once across re-runs (a crash after telling must not tell twice).
 * A slash command's "working on it" note is replaced; other sources get a new ephemeral message.
 *
 * The step is marked started before the message goes out, so that from then on no retry notice
 * or failure message of this job can follow it (failure.ts). A run that finds it started but not
 * finished (the worker died while telling) tells it again: for a slash command the same message
 * replaces the same note, so the person still sees one outcome.
 */
export async function tell(
  ctx: { once: Once; outcomes: Outcomes; tellLater?: TellLater | undefined },
  origin: Origin,
  message: SlackMessage,
  options: TellOptions = {},
): Promise<void> {
  const replaceOriginal = options.replace ?? replacesAck(origin);
  const { rider, first } = options;
  // A slash command's note is replaced: told again, it still shows once. Its telling waits for
  // the job's completion, its mark leaving with it, the message kept with the mark in the index
  // of pending tellings (tellAfterCompletion.ts).
  if (replaceOriginal && ctx.tellLater) {
    await ctx.tellLater({
      origin,
      message,
      rider,
      first,
      deliver: () => ctx.outcomes.deliver(origin, message, { replaceOriginal }),
    });
    return;
  }
  // The message is kept in the log before the telling is marked started (its mark rides on that
  // write): a job that then stalls out can still tell it, replacing the same note (stalledOut.ts).
  await ctx.once(
    TOLD_MESSAGE_STEP,
    async (): Promise<ToldMessage> => ({ message, replaceOriginal }),
    undefined,
    { repeatable: true },
  );
  await ctx.once(
    TELL_STEP,
    async () => {
      await first?.();
      return ctx.outcomes.deliver(origin, message, { replaceOriginal });
    },
    async () => undefined,
    rider ? { rider } : {},
  );
}

/** A run's last act, to be done once its job has completed (tellAfterCompletion.ts). */
export interface FinalTelling {
  origin: Origin;
  message: SlackMessage;
  /** store work that rides on the telling's mark (the cards' look-up) */
  rider?: Rider | undefined;
  /** done before the message goes out (the cards, from the rider's look-up) */
  first?: (() => Promise<void>) | undefined;
  /** the message, replacing the slash command's note */
  deliver: () => Promise<Delivered>;
}

/** Hands the run's telling over to be done after the job completes (ProcessorContext.tellLater). */
export type TellLater = (telling: FinalTelling) => Promise<void>;

export interface TellOptions {
  /** replace the slash command's note (default: only for a slash command) */
  replace?: boolean;
  /** store work that rides on the telling's started mark (runLog.ts) */
  rider?: Rider;
  /** done after the mark, before the message goes out (a run that dies in it tells the message) */
  first?: () => Promise<void>;
}

/** The step that keeps the outcome message a job is about to tell. */
export const TOLD_MESSAGE_STEP = 'tell:message';

export interface ToldMessage {
  message: SlackMessage;
  replaceOriginal: boolean;
}
