/**
 * Thread replies under a post card become comments on the post, in Slack channels linked with
 * `with replies`; replies to mirrored chat messages go back to their thread (threadReply.ts).
 * Bolt acks events itself; Slack retries an event it thinks was lost (`x-slack-retry-num`), and
 * the idempotency key `evt:<channel>:<ts>` makes a retry enqueue nothing.
 * Bots, the bot itself, edits, deletions and other subtypes are ignored.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { authorisedTeam } from '../authorised.ts';
import type { ListenerDeps } from '../deps.ts';
import { MessageEvent } from '../payloads.ts';
import { enqueue } from '../shared.ts';
import { replyKey, replyMarkdown, replyOrigin } from './reply.ts';
import { bridgeThreadReply } from './threadReply.ts';

type Args = SlackEventMiddlewareArgs<'message'> & AllMiddlewareArgs;

/** A reply shared to the channel too is still a reply; every other subtype is not a person's new message. */
const REPLY_SUBTYPES = new Set([undefined, 'thread_broadcast']);

export function messageListener(deps: ListenerDeps) {
  return async ({ event, context, client }: Args): Promise<void> => {
    const read = MessageEvent.safeParse(event);
    if (!read.success) {
      deps.logger.debug({ issues: read.error.issues.length }, 'message event not read');
      return;
    }
    const message = read.data;
    if (!REPLY_SUBTYPES.has(message.subtype)) return;
    if (message.bot_id || !message.user || message.user === context.botUserId) return;
    if (!message.thread_ts || message.thread_ts === message.ts) return;
    const teamId = authorisedTeam(context);
    if (!teamId) return;

    const reply = { ...message, user: message.user, thread_ts: message.thread_ts };
    try {
      const card = { slackChannel: message.channel, ts: message.thread_ts };
      const postId = await deps.store.cards.postOfMessage(teamId, card);
      if (!postId) {
        // Not a card's thread: perhaps a reply to a mirrored chat thread (threadReply.ts).
        await bridgeThreadReply(deps, client, { teamId, message: reply });
        return;
      }
      const link = await deps.store.links.get(teamId, message.channel);
      if (!link?.bridgeReplies) return;

      const text = await replyMarkdown(deps, client, teamId, reply);
      if (text === '') return;
      const result = await enqueue(
        deps,
        'createComment',
        {
          origin: replyOrigin(teamId, reply),
          post: { id: postId },
          text,
          reply: { slackChannel: message.channel, ts: message.ts },
          card,
        },
        replyKey(reply),
      );
      if (result.status === 'duplicate' || context.retryNum !== undefined) {
        deps.logger.debug({ retryNum: context.retryNum, status: result.status }, 'retried message event');
      }
    } catch (error) {
      // Bolt has acked already: the reply is lost for the bridge; say so loudly in the logs.
      deps.logger.error({ err: error, channel: message.channel, ts: message.ts }, 'could not bridge a reply');
    }
  };
}
