/**
 * "Create post from message": opens the post form prefilled with the message as markdown
 * (mentions as names, a link back to the message), its first line as the title. The trigger_id lives 3 s, so the name and
 * permalink lookups get a short deadline; past it the form opens with raw ids and no link.
 */

import { createPostModal, suggestedTitle } from '../../../render/modals.ts';
import { slackToMarkdown } from '../../../render/slackMarkdown.ts';
import type { ListenerDeps } from '../deps.ts';
import { encodeMetadata } from '../payloads.ts';
import { LOOKUP_DEADLINE_MS, permalinkOf, slackNames, withDeadline } from '../shared.ts';
import { messageShortcut, shortcutWhere } from './message.ts';

export function createPostFromMessageShortcut(deps: ListenerDeps) {
  return messageShortcut(deps, {
    name: 'create-post',
    opening: 'create post from message',
    form: 'post form',
    async prepare(used, args, receivedAt) {
      const [names, permalink, link] = await Promise.all([
        slackNames(args.client, deps, used.teamId, used.message.text, LOOKUP_DEADLINE_MS),
        permalinkOf(args.client, used.slackChannel, used.message.ts, LOOKUP_DEADLINE_MS),
        withDeadline(deps.store.links.get(used.teamId, used.slackChannel), LOOKUP_DEADLINE_MS),
      ]);
      return {
        view: createPostModal({
          ...(link ? { channel: { id: link.channelId, name: link.channelName } } : {}),
          ...titled(slackToMarkdown(used.message.text, names)),
          content: slackToMarkdown(used.message.text, names, permalink),
          privateMetadata: encodeMetadata({
            ...shortcutWhere(used, receivedAt),
            fromMessage: { slackChannel: used.slackChannel, ts: used.message.ts },
          }),
        }),
      };
    },
  });
}

/** The title field's prefill: the first line of the message, when it has one. */
export function titled(markdown: string): { title?: string } {
  const title = suggestedTitle(markdown);
  return title ? { title } : {};
}
