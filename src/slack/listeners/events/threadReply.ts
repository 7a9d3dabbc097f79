/**
 * Slack replies going back into mirrored chat threads. A message in the Slack thread of a
 * mirrored message answers that message (`parent_id`); a message in the Slack thread a DM was
 * sent from goes to its chat thread. Either becomes a `sendDm` job, keyed by the Slack message
 * (`evt:<channel>:<ts>`, as card replies are), so Slack's retries enqueue nothing twice. The
 * message listener has already dropped bots, the bot itself, edits and other subtypes.
 */
import type { WebClient } from '@slack/web-api';
import type { ListenerDeps } from '../deps.ts';
import { enqueue } from '../shared.ts';
import { type ReplyEvent, replyKey, replyMarkdown, replyOrigin } from './reply.ts';

export interface ThreadReply {
  teamId: string;
  message: ReplyEvent;
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

  const text = await replyMarkdown(deps, client, teamId, message);
  if (text === '') return true;
  await enqueue(
    deps,
    'sendDm',
    {
      origin: replyOrigin(teamId, message),
      threadId,
      text,
      ...(mirrored ? { parentId: mirrored.messageId } : {}),
    },
    replyKey(message),
  );
  return true;
}
