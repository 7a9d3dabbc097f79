/**
 * "Create post from thread": on a thread's parent (or any of its replies), opens the post form
 * with the whole thread as markdown — the parent, then each reply with its author and a link —
 * and the parent's first line as the title. The card then goes into that thread. Lookups share
 * the trigger_id's 3 s: past their deadline the form opens with what arrived.
 */

import { LIMITS } from '../../../render/limits.ts';
import { createPostModal } from '../../../render/modals.ts';
import { type ThreadMessage, threadToMarkdown } from '../../../render/threadMarkdown.ts';
import type { ListenerDeps } from '../deps.ts';
import { encodeMetadata } from '../payloads.ts';
import { LOOKUP_DEADLINE_MS, permalinkOf, slackNames, withDeadline } from '../shared.ts';
import { titled } from './createPostFromMessage.ts';
import { messageShortcut, type ShortcutArgs, shortcutWhere } from './message.ts';

/** Replies read at most: more than the form's 3,000 characters can hold anyway. */
const REPLIES_MAX = 200;
/** Messages whose link is asked for: no more than can fit in the form, to spare Slack's rate limits. */
const PERMALINKS_MAX = 40;

type Client = ShortcutArgs['client'];

/** The thread's messages, parent first (one page of conversations.replies). */
async function threadOf(client: Client, slackChannel: string, rootTs: string): Promise<ThreadMessage[]> {
  const answer = await client.conversations.replies({
    channel: slackChannel,
    ts: rootTs,
    limit: REPLIES_MAX,
  });
  return (answer.messages ?? [])
    .filter((m) => typeof m.ts === 'string')
    .map((m) => ({ ts: m.ts!, text: m.text ?? '', ...(m.user ? { user: m.user } : {}) }));
}

export function createPostFromThreadShortcut(deps: ListenerDeps) {
  return messageShortcut(deps, {
    name: 'create-post-from-thread',
    opening: 'create post from thread',
    form: 'post form',
    async prepare(used, args, receivedAt) {
      const rootTs = used.message.threadTs ?? used.message.ts;
      const [thread, link] = await Promise.all([
        withDeadline(threadOf(args.client, used.slackChannel, rootTs), LOOKUP_DEADLINE_MS),
        withDeadline(deps.store.links.get(used.teamId, used.slackChannel), LOOKUP_DEADLINE_MS),
      ]);
      const root = thread?.find((m) => m.ts === rootTs) ?? { ts: rootTs, text: used.message.text };
      const replies = (thread ?? []).filter((m) => m.ts !== rootTs);
      // Names of authors and of people mentioned, and a link to each message, in one round.
      const people = [...new Set(replies.flatMap((m) => (m.user ? [`<@${m.user}>`] : [])))].join(' ');
      const allText = [root.text, ...replies.map((m) => m.text), people].join('\n');
      const [names, ...links] = await Promise.all([
        slackNames(args.client, deps, used.teamId, allText, LOOKUP_DEADLINE_MS),
        ...[root, ...replies]
          .slice(0, PERMALINKS_MAX)
          .map((m) => permalinkOf(args.client, used.slackChannel, m.ts, LOOKUP_DEADLINE_MS)),
      ]);
      const [rootLink, ...replyLinks] = links;
      const content = threadToMarkdown(
        { ...root, permalink: rootLink },
        replies.map((m, i) => ({ ...m, permalink: replyLinks[i] })),
        names,
        LIMITS.plainTextInputMaxLength,
      );
      return {
        view: createPostModal({
          ...(link ? { channel: { id: link.channelId, name: link.channelName } } : {}),
          ...titled(threadToMarkdown(root, [], names, LIMITS.plainTextInputMaxLength)),
          content,
          privateMetadata: encodeMetadata({
            ...shortcutWhere(used, receivedAt),
            fromMessage: { slackChannel: used.slackChannel, ts: rootTs },
          }),
        }),
      };
    },
  });
}
