/**
 * How a job's outcome reaches the person in Slack. Never throws: a Slack error while telling
 * the outcome must not make the operation run again.
 *
 * Order of the ways out, first that works wins:
 * 1. the interaction's `response_url`, while Slack still honours it (30 minutes, 5 uses);
 * 2. `chat.postEphemeral` in the Slack channel (the bot must be able to see it);
 * 3. a direct message from the app to the person.
 */
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { request } from 'undici';
import type { Logger } from '../logger.ts';
import { isResponseUrlFresh } from '../operations/responseUrl.ts';
import type { Origin } from '../operations/schemas.ts';

export interface SlackMessage {
  text: string;
  blocks?: KnownBlock[];
}

export interface DeliverOptions {
  /** replace the message the interaction came from (the "working on it" note, or a list page) */
  replaceOriginal?: boolean;
  /** visible to the whole Slack channel (through response_url only) */
  inChannel?: boolean;
}

export interface Outcomes {
  deliver(
    origin: Origin,
    message: SlackMessage,
    options?: DeliverOptions,
  ): Promise<'responseUrl' | 'ephemeral' | 'dm' | 'lost'>;
}

export function createOutcomes(slack: WebClient, logger: Logger, now: () => number = Date.now): Outcomes {
  return {
    async deliver(origin, message, options = {}) {
      if (origin.responseUrl && isResponseUrlFresh(origin.responseUrlAt ?? origin.receivedAt, now())) {
        const ok = await postToResponseUrl(origin.responseUrl, message, options).catch((error: unknown) => {
          logger.warn({ err: error }, 'response_url post failed');
          return false;
        });
        if (ok) return 'responseUrl';
      }
      try {
        await slack.chat.postEphemeral({
          channel: origin.slackChannel,
          user: origin.userId,
          text: message.text,
          ...(message.blocks ? { blocks: message.blocks } : {}),
          ...(origin.threadTs ? { thread_ts: origin.threadTs } : {}),
        });
        return 'ephemeral';
      } catch (error) {
        logger.info({ err: slackErrorCode(error) }, 'postEphemeral failed; sending a direct message');
      }
      try {
        await slack.chat.postMessage({
          channel: origin.userId,
          text: message.text,
          ...(message.blocks ? { blocks: message.blocks } : {}),
        });
        return 'dm';
      } catch (error) {
        logger.error({ err: slackErrorCode(error), userId: origin.userId }, 'could not tell the outcome');
        return 'lost';
      }
    },
  };
}

async function postToResponseUrl(
  url: string,
  message: SlackMessage,
  options: DeliverOptions,
): Promise<boolean> {
  const body = {
    response_type: options.inChannel ? 'in_channel' : 'ephemeral',
    replace_original: options.replaceOriginal ?? false,
    text: message.text,
    ...(message.blocks ? { blocks: message.blocks } : {}),
  };
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    headersTimeout: 5000,
    bodyTimeout: 5000,
  });
  const text = await res.body.text();
  if (res.statusCode < 200 || res.statusCode >= 300) return false;
  // Slack answers `ok` as text, or JSON with ok:false and an error.
  if (text.startsWith('{')) {
    try {
      return (JSON.parse(text) as { ok?: boolean }).ok !== false;
    } catch {
      return true;
    }
  }
  return true;
}

/** The Slack error code of a Web API failure (e.g. `not_in_channel`), never the request with its token. */
export function slackErrorCode(error: unknown): string {
  if (error && typeof error === 'object') {
    const e = error as { data?: { error?: unknown }; code?: unknown };
    if (typeof e.data?.error === 'string') return e.data.error;
    if (typeof e.code === 'string') return e.code;
  }
  return 'unknown_error';
}
