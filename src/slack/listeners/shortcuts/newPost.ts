/**
 * "New post", the global shortcut (the composer's shortcuts menu, anywhere): opens the post form.
 * A global shortcut comes from no channel, so the card goes to the person's conversation with
 * the app, as from App Home.
 */
import type { AllMiddlewareArgs, GlobalShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { createPostModal } from '../../../render/modals.ts';
import type { ListenerDeps } from '../deps.ts';
import { encodeMetadata, GlobalShortcutBody } from '../payloads.ts';

type Args = SlackShortcutMiddlewareArgs<GlobalShortcut> & AllMiddlewareArgs;

export function newPostShortcut(deps: ListenerDeps) {
  return async ({ body, ack, client }: Args): Promise<void> => {
    await ack();
    const read = GlobalShortcutBody.safeParse(body);
    if (!read.success) {
      deps.logger.warn('malformed global shortcut');
      return;
    }
    try {
      await client.views.open({
        trigger_id: read.data.trigger_id,
        view: createPostModal({ privateMetadata: encodeMetadata({ slackChannel: read.data.user.id }) }),
      });
    } catch (error) {
      deps.logger.warn({ err: error }, 'views.open failed for the post form from the global shortcut');
    }
  };
}
