/**
 * A person's reply in a Slack thread, as both bridges read it (card replies become comments,
 * message.ts; replies in mirrored threads become DMs, threadReply.ts): its text as markdown,
 * the origin of the job it becomes, and that job's idempotency key.
 */
import type { WebClient } from '@slack/web-api';
import { TEXT_MAX } from '../../../operations/limits.ts';
import type { Origin } from '../../../operations/schemas.ts';
import { slackToMarkdown } from '../../../render/slackMarkdown.ts';
import type { ListenerDeps } from '../deps.ts';
import type { MessageEvent } from '../payloads.ts';
import { slackNames } from '../shared.ts';

/** Names in the reply: no one waits on this, but a stuck lookup must not hold the listener. */
const NAMES_DEADLINE_MS = 2000;

export type ReplyEvent = MessageEvent & { user: string; thread_ts: string };

/**
 * The reply's text as markdown, names resolved; '' when nothing is left. Markdown can come out
 * longer than Slack's text: it keeps what fits.
 */
export async function replyMarkdown(
  deps: ListenerDeps,
  client: WebClient,
  teamId: string,
  message: ReplyEvent,
): Promise<string> {
  const names = await slackNames(client, deps, teamId, message.text, NAMES_DEADLINE_MS);
  const markdown = slackToMarkdown(message.text, names).trim();
  return markdown.length <= TEXT_MAX ? markdown : `${markdown.slice(0, TEXT_MAX - 1)}…`;
}

export function replyOrigin(teamId: string, message: ReplyEvent): Origin {
  return {
    teamId,
    userId: message.user,
    slackChannel: message.channel,
    threadTs: message.thread_ts,
    receivedAt: Date.now(),
    source: 'event',
  };
}

/** Keyed by the Slack message, so Slack's retries of the event enqueue nothing twice. */
export function replyKey(message: ReplyEvent): string {
  return `evt:${message.channel}:${message.ts}`;
}
