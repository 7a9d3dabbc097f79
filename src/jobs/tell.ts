/** Telling the person how their operation went. */

import type { Origin } from '../operations/schemas.ts';
import type { ProcessorContext } from './context.ts';
import type { SlackMessage } from './outcome.ts';
import { TELL_STEP } from './steps.ts';
import { replacesAck } from './worker.ts';

/**
 * Delivers the outcome, once across re-runs (a crash after telling must not tell twice).
 * A slash command's "working on it" note is replaced; other sources get a new ephemeral message.
 *
 * The step is marked started before the message goes out, so that from then on no retry notice
 * or failure message of this job can follow it (worker.ts). A run that finds it started but not
 * finished (the worker died while telling) tells it again: for a slash command the same message
 * replaces the same note, so the person still sees one outcome.
 */
export async function tell(
  ctx: ProcessorContext,
  origin: Origin,
  message: SlackMessage,
  options: { replace?: boolean } = {},
): Promise<void> {
  await ctx.once(
    TELL_STEP,
    () => ctx.outcomes.deliver(origin, message, { replaceOriginal: options.replace ?? replacesAck(origin) }),
    async () => undefined,
  );
}
