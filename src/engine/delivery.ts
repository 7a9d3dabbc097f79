/**
 * The one way to tell a person in Slack how something went. Never throws: a Slack error while
 * telling must not make the operation run again.
 *
 * Order of the ways out, first that works wins:
 * 1. the interaction's `response_url`, while Slack still honours it (operations/responseUrl.ts);
 * 2. `chat.postEphemeral` in the Slack channel (the bot must be able to see it);
 * 3. a direct message from the app to the person.
 *
 * Two doors into the same order: a processor tells through `ctx.outcomes` (or `tell`, once
 * across re-runs), posting to the `response_url` the job carries; a listener answering at once
 * tells through `tellNow`, whose first way is Bolt's `respond` for the interaction in hand.
 * This module imports nothing of slack/, so listeners may import it.
 */
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { request } from 'undici';
import type { Logger } from '../logger.ts';
import { usableResponseUrl } from '../operations/responseUrl.ts';
import type { Origin } from '../operations/schemas.ts';
import { type Once, type Rider, TELL_STEP } from './steps.ts';

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
interface Ways {
  /** posts on the interaction's response_url; false or a throw: try the next way */
  responseUrl?: (() => Promise<boolean>) | undefined;
  slack: WebClient;
  userId?: string | undefined;
  /** the Slack channel of the ephemeral message; absent: no ephemeral */
  slackChannel?: string | undefined;
  threadTs?: string | undefined;
}

async function tellThrough(ways: Ways, message: SlackMessage, logger: Logger): Promise<Delivered> {
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

/** A slash command was acked with a "working on it" note that the outcome replaces; other sources keep their message. */
export function replacesAck(origin: Origin): boolean {
  return origin.source === 'command';
}

/**
 * Delivers a job's outcome, once across re-runs (a crash after telling must not tell twice).
 * A slash command's "working on it" note is replaced; other sources get a new ephemeral message.
 *
 * The step is marked started before the message goes out, so that from then on no retry notice
 * or failure message of this job can follow it (worker.ts). A run that finds it started but not
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
  // write): a job that then stalls out can still tell it, replacing the same note (worker.ts).
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
  /** store work that rides on the telling's started mark (steps.ts) */
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
