/** Telling the person how their operation went. */
import type { ProcessorContext } from '../context.ts';
import type { SlackMessage } from '../outcome.ts';
import type { Origin } from '../schemas.ts';
import { replacesAck } from '../worker.ts';

/**
 * Delivers the outcome, once across re-runs (a crash after telling must not tell twice).
 * A slash command's "working on it" note is replaced; other sources get a new ephemeral message.
 */
export async function tell(
  ctx: ProcessorContext,
  origin: Origin,
  message: SlackMessage,
  options: { replace?: boolean } = {},
): Promise<void> {
  await ctx.once('tell', () =>
    ctx.outcomes.deliver(origin, message, { replaceOriginal: options.replace ?? replacesAck(origin) }),
  );
}
