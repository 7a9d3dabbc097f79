/**
 * The one way to tell a person in Slack how something went: the interaction's `response_url`
 * while Slack honours it, else an ephemeral message in the channel, else a DM. Never throws: a
 * Slack error while telling must not make the operation run again. A processor tells through
 * `ctx.outcomes` (or `tell`, once across runs: tell.ts); a listener answering at once through
 * `tellNow` (tellNow.ts), the same ways.
 */
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { request } from 'undici';
import type { Logger } from '../logger.ts';
import { usableResponseUrl } from '../operations/responseUrl.ts';
import type { Origin } from '../operations/schemas.ts';
import { slackErrorCode } from '../slackapi/errors.ts';

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

/** The way the message went out, or `lost` when none worked. */
export type Delivered = 'responseUrl' | 'ephemeral' | 'dm' | 'lost';

export interface Outcomes {
  deliver(origin: Origin, message: SlackMessage, options?: DeliverOptions): Promise<Delivered>;
}

/** The ways to reach one person, in the order they are tried. */
export interface Ways {
  /** posts on the interaction's response_url; false or a throw: try the next way */
  responseUrl?: (() => Promise<boolean>) | undefined;
  slack: WebClient;
  userId?: string | undefined;
  /** the Slack channel of the ephemeral message; absent: no ephemeral */
  slackChannel?: string | undefined;
  threadTs?: string | undefined;
}

/** Tells `message` the first way that works, in order: response_url, ephemeral, DM. */
export async function tellThrough(ways: Ways, message: SlackMessage, logger: Logger): Promise<Delivered> {
  const { slack, userId, slackChannel, threadTs } = ways;
  if (ways.responseUrl) {
    const ok = await ways.responseUrl().catch((error: unknown) => {
      logger.warn({ err: error }, 'response_url post failed');
      return false;
    });
    if (ok) return 'responseUrl';
  }
  if (userId && slackChannel) {
    try {
      await slack.chat.postEphemeral({
        channel: slackChannel,
        user: userId,
        text: message.text,
        ...(message.blocks ? { blocks: message.blocks } : {}),
        ...(threadTs ? { thread_ts: threadTs } : {}),
      });
      return 'ephemeral';
    } catch (error) {
      logger.info({ err: slackErrorCode(error) }, 'postEphemeral failed; sending a direct message');
    }
  }
  if (userId) {
    try {
      await slack.chat.postMessage({
        channel: userId,
        text: message.text,
        ...(message.blocks ? { blocks: message.blocks } : {}),
      });
      return 'dm';
    } catch (error) {
      logger.error({ err: slackErrorCode(error), userId }, 'could not tell the outcome');
      return 'lost';
    }
  }
  logger.error({ text: message.text }, 'no way to tell the person');
  return 'lost';
}

/** How a job's outcome reaches the person: the job's origin says where they are. */
export function createOutcomes(slack: WebClient, logger: Logger, now: () => number = Date.now): Outcomes {
  return {
    async deliver(origin, message, options = {}) {
      const url = usableResponseUrl(origin, now());
      return tellThrough(
        {
          responseUrl: url ? () => postToResponseUrl(url, message, options) : undefined,
          slack,
          userId: origin.userId,
          slackChannel: origin.slackChannel,
          threadTs: origin.threadTs,
        },
        message,
        logger,
      );
    },
  };
}

/** A slash command was acked with a "working on it" note that the outcome replaces; other sources keep their message. */
export function replacesAck(origin: Origin): boolean {
  return origin.source === 'command';
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
