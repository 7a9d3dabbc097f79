/**
 * "Comment on post": on a post card, or on a message with a post link the bot has seen, opens
 * the comment form for that post. Anything else is explained to the person.
 */

import { problem } from '../../render/messages.ts';
import { commentModal } from '../../render/modals.ts';
import type { ListenerDeps } from '../deps.ts';
import { encodeMetadata } from '../payloads.ts';
import { linksIn, NOT_UNDERSTOOD, NOT_UNDERSTOOD_HINT, STORE_DOWN } from '../shared.ts';
import { answer, readShortcut, type ShortcutArgs, shortcutWhere, type UsedShortcut } from './message.ts';

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
  return async (args: ShortcutArgs): Promise<void> => {
    await args.ack();
    const used = readShortcut(args.body);
    if (!used) {
      deps.logger.warn('malformed comment-on-post shortcut');
      await answer(deps, args, problem(NOT_UNDERSTOOD, NOT_UNDERSTOOD_HINT));
      return;
    }
    const receivedAt = Date.now();
    let found: Awaited<ReturnType<typeof postOf>>;
    try {
      found = await postOf(deps, used);
    } catch (error) {
      deps.logger.error({ err: error }, 'could not look up the post of a message');
      await answer(deps, args, problem(STORE_DOWN));
      return;
    }
    if (!found) {
      await answer(
        deps,
        args,
        problem(NO_POST_HERE, 'Use it on a post card, or on a message that links to a post.'),
      );
      return;
    }
    try {
      await args.client.views.open({
        trigger_id: used.triggerId,
        view: commentModal({
          postId: found.postId,
          privateMetadata: encodeMetadata({
            ...shortcutWhere(used, receivedAt),
            postId: found.postId,
            ...(found.card ? { card: found.card } : {}),
          }),
        }),
      });
    } catch (error) {
      deps.logger.warn({ err: error }, 'views.open failed for comment on post');
      await answer(deps, args, problem('I could not open the comment form.', 'Use the shortcut again.'));
    }
  };
}
