/**
 * "Create post from message": opens the post form prefilled with the message as markdown
 * (mentions as names, a link back to the message), its first line as the title. The trigger_id lives 3 s, so the name and
 * permalink lookups get a short deadline; past it the form opens with raw ids and no link.
 */

import { problem } from '../../render/messages.ts';
import { createPostModal, suggestedTitle } from '../../render/modals.ts';
import { slackToMarkdown } from '../../render/mrkdwn.ts';
import type { ListenerDeps } from '../deps.ts';
import { encodeMetadata } from '../payloads.ts';
import {
  LOOKUP_DEADLINE_MS,
  NOT_UNDERSTOOD,
  NOT_UNDERSTOOD_HINT,
  permalinkOf,
  slackNames,
  withDeadline,
} from '../shared.ts';
import { answer, readShortcut, type ShortcutArgs, shortcutWhere } from './message.ts';

export function createPostFromMessageShortcut(deps: ListenerDeps) {
  return async (args: ShortcutArgs): Promise<void> => {
    await args.ack();
    const used = readShortcut(args.body);
    if (!used) {
      deps.logger.warn('malformed create-post shortcut');
      await answer(deps, args, problem(NOT_UNDERSTOOD, NOT_UNDERSTOOD_HINT));
      return;
    }
    const receivedAt = Date.now();
    const [names, permalink, link] = await Promise.all([
      slackNames(args.client, deps, used.teamId, used.message.text, LOOKUP_DEADLINE_MS),
      permalinkOf(args.client, used.slackChannel, used.message.ts, LOOKUP_DEADLINE_MS),
      withDeadline(deps.store.links.get(used.teamId, used.slackChannel), LOOKUP_DEADLINE_MS),
    ]);
    try {
      await args.client.views.open({
        trigger_id: used.triggerId,
        view: createPostModal({
          ...(link ? { channel: { id: link.channelId, name: link.channelName } } : {}),
          ...titled(slackToMarkdown(used.message.text, names)),
          content: slackToMarkdown(used.message.text, names, permalink),
          privateMetadata: encodeMetadata({
            ...shortcutWhere(used, receivedAt),
            fromMessage: { slackChannel: used.slackChannel, ts: used.message.ts },
          }),
        }),
      });
    } catch (error) {
      deps.logger.warn({ err: error }, 'views.open failed for create post from message');
      await answer(deps, args, problem('I could not open the post form.', 'Use the shortcut again.'));
    }
  };
}

/** The title field's prefill: the first line of the message, when it has one. */
export function titled(markdown: string): { title?: string } {
  const title = suggestedTitle(markdown);
  return title ? { title } : {};
}
