/**
 * "Comment on post": on a post card, or on a message with a post link the bot has seen, opens
 * the comment form for that post. Anything else is explained to the person.
 */

import { problem } from '../../../render/messages.ts';
import { commentModal } from '../../../render/modals.ts';
import type { ListenerDeps } from '../deps.ts';
import { encodeMetadata } from '../payloads.ts';
import { linksIn } from '../shared.ts';
import { fromStore, messageShortcut, shortcutWhere, type UsedShortcut } from './message.ts';

export const NO_POST_HERE = 'This message is not a post card and has no post link I know.';

/** The post a message shows: a card the bot posted, or a post url the bot has seen. */
async function postOf(deps: ListenerDeps, used: UsedShortcut) {
  const message = { slackChannel: used.slackChannel, ts: used.message.ts };
  const onCard = await deps.store.cards.postOfMessage(used.teamId, message);
  if (onCard) return { postId: onCard, card: message };
  for (const url of linksIn(used.message.text)) {
    const postId = await deps.store.urls.postOfUrl(used.teamId, url);
    if (postId) return { postId };
  }
  return undefined;
}

export function commentOnPostShortcut(deps: ListenerDeps) {
  return messageShortcut(deps, {
    name: 'comment-on-post',
    opening: 'comment on post',
    form: 'comment form',
    async prepare(used, _args, receivedAt) {
      const looked = await fromStore(
        deps,
        () => postOf(deps, used),
        problem(NO_POST_HERE, 'Use it on a post card, or on a message that links to a post.'),
      );
      if ('tell' in looked) return looked;
      const found = looked.found;
      return {
        view: commentModal({
          postId: found.postId,
          privateMetadata: encodeMetadata({
            ...shortcutWhere(used, receivedAt),
            postId: found.postId,
            ...(found.card ? { card: found.card } : {}),
          }),
        }),
      };
    },
  });
}
