/**
 * Slack replies going back into mirrored chat threads. A message in the Slack thread of a
 * mirrored message answers that message (`parent_id`); a message in the Slack thread a DM was
 * sent from goes to its chat thread. Either becomes a `sendDm` job, keyed by the Slack message
 * (`evt:<channel>:<ts>`, as card replies are), so Slack's retries enqueue nothing twice. The
 * message listener has already dropped bots, the bot itself, edits and other subtypes.
 */
import type { WebClient } from '@slack/web-api';
import { TEXT_MAX } from '../../../jobs/schemas.ts';
import type { ListenerDeps } from '../../app.ts';
import { slackToMarkdown } from '../../render/mrkdwn.ts';
import type { MessageEvent } from '../payloads.ts';
import { enqueue, slackNames } from '../shared.ts';

/** Names in the reply: no one waits on this, but a stuck lookup must not hold the listener. */
const NAMES_DEADLINE_MS = 2000;

export interface ThreadReply {
  teamId: string;
  message: MessageEvent & { user: string; thread_ts: string };
}

/** Answers whether the reply belonged to a mirrored thread (and was enqueued, or was a retry). */
export async function bridgeThreadReply(
  deps: ListenerDeps,
  client: WebClient,
  { teamId, message }: ThreadReply,
): Promise<boolean> {
  const where = { slackChannel: message.channel, ts: message.thread_ts };
  const mirrored = await deps.store.mirrors.messageOf(teamId, where);
  const threadId =
    mirrored?.threadId ??
    (await deps.store.mirrors.threadOfConversation(teamId, {
      slackChannel: message.channel,
      threadTs: message.thread_ts,
    }));
  if (!threadId) return false;

  const names = await slackNames(client, deps, teamId, message.text, NAMES_DEADLINE_MS);
  const markdown = slackToMarkdown(message.text, names).trim();
  const text = markdown.length <= TEXT_MAX ? markdown : `${markdown.slice(0, TEXT_MAX - 1)}…`;
  if (text === '') return true;
  await enqueue(
    deps,
    'sendDm',
    {
      origin: {
        teamId,
        userId: message.user,
        slackChannel: message.channel,
        threadTs: message.thread_ts,
        receivedAt: Date.now(),
        source: 'event',
      },
      threadId,
      text,
      ...(mirrored ? { parentId: mirrored.messageId } : {}),
    },
    `evt:${message.channel}:${message.ts}`,
  );
  return true;
}
