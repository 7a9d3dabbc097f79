/**
 * The engine's telling entry for Slack listeners: a listener answering a person at once (a
 * problem with what they asked, a page of a list) tells them the ways every outcome goes
 * (delivery.ts), its first way Bolt's `respond`. Listeners import this file and nothing else of
 * the engine; it imports nothing of slack/.
 */
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../logger.ts';
import { type SlackMessage, tellThrough } from './delivery.ts';

/** Bolt's `respond` for the interaction in hand: its response_url, fresh by definition. */
export type Respond = (message: {
  response_type: 'ephemeral';
  replace_original: false;
  text: string;
  blocks?: KnownBlock[];
}) => Promise<unknown>;

/**
 * Tells one person something only they see, at once from a listener: through `respond` when
 * the interaction has a response_url, else (or when that fails) an ephemeral message in the
 * channel, else a DM.
 */
export async function tellNow(
  target: {
    respond?: Respond | undefined;
    client: WebClient;
    logger: Logger;
    userId?: string | undefined;
    slackChannel?: string | undefined;
  },
  message: SlackMessage,
): Promise<void> {
  const { respond } = target;
  await tellThrough(
    {
      responseUrl: respond
        ? async () => {
            await respond({ response_type: 'ephemeral', replace_original: false, ...message });
            return true;
          }
        : undefined,
      slack: target.client,
      userId: target.userId,
      slackChannel: target.slackChannel,
    },
    message,
    target.logger,
  );
}
