/**
 * "Resolve post": on a post card, opens the resolve form for that post; on a Slack reply that
 * the bot bridged as a comment, opens it with that comment as the resolving comment.
 */

import { problem } from '../../../render/messages.ts';
import { resolveModal } from '../../../render/modals.ts';
import { slackToMarkdown } from '../../../render/slackMarkdown.ts';
import type { ListenerDeps } from '../deps.ts';
import { encodeMetadata } from '../payloads.ts';
import { fromStore, messageShortcut, shortcutWhere, type UsedShortcut } from './message.ts';

export const NOTHING_TO_RESOLVE =
  'This message is neither a post card nor a reply I turned into a comment, so there is no post to resolve here.';

type Target =
  | { kind: 'card'; postId: string; card: { slackChannel: string; ts: string } }
  | { kind: 'reply'; postId: string; commentId: string; card?: { slackChannel: string; ts: string } };

async function targetOf(deps: ListenerDeps, used: UsedShortcut): Promise<Target | undefined> {
  const message = { slackChannel: used.slackChannel, ts: used.message.ts };
  const onCard = await deps.store.cards.postOfMessage(used.teamId, message);
  if (onCard) return { kind: 'card', postId: onCard, card: message };
  const bridged = await deps.store.cards.commentOfReply(used.teamId, message);
  if (!bridged) return undefined;
  // The reply was bridged because its thread is under a card: that card shows the post.
  const parent = used.message.threadTs
    ? { slackChannel: used.slackChannel, ts: used.message.threadTs }
    : undefined;
  const parentPost = parent ? await deps.store.cards.postOfMessage(used.teamId, parent) : undefined;
  return {
    kind: 'reply',
    postId: bridged.postId,
    commentId: bridged.commentId,
    ...(parent && parentPost === bridged.postId ? { card: parent } : {}),
  };
}

export function resolvePostShortcut(deps: ListenerDeps) {
  return messageShortcut(deps, {
    name: 'resolve-post',
    opening: 'resolve post',
    form: 'resolve form',
    async prepare(used, _args, receivedAt) {
      const looked = await fromStore(
        deps,
        () => targetOf(deps, used),
        problem(NOTHING_TO_RESOLVE, 'Use it on a post card, or on a thread reply under a post card.'),
      );
      if ('tell' in looked) return looked;
      const target = looked.found;
      return {
        view: resolveModal({
          postId: target.postId,
          ...(target.kind === 'reply'
            ? {
                comment: {
                  id: target.commentId,
                  excerpt: slackToMarkdown(used.message.text, { user: () => undefined }),
                },
              }
            : {}),
          privateMetadata: encodeMetadata({
            ...shortcutWhere(used, receivedAt),
            postId: target.postId,
            ...(target.kind === 'reply' ? { commentId: target.commentId } : {}),
            ...(target.card ? { card: target.card } : {}),
          }),
        }),
      };
    },
  });
}
