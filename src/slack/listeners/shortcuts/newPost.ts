/**
 * "New post", the global shortcut (the composer's shortcuts menu, anywhere): opens the post form.
 * A global shortcut comes from no channel, so the card goes to the person's conversation with
 * the app, as from App Home.
 */
import type { AllMiddlewareArgs, GlobalShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import type { ListenerDeps } from '../../app.ts';
import { createPostModal } from '../../render/modals.ts';
import { encodeMetadata } from '../payloads.ts';

type Args = SlackShortcutMiddlewareArgs<GlobalShortcut> & AllMiddlewareArgs;

export function newPostShortcut(deps: ListenerDeps) {
  return async ({ body, ack, client }: Args): Promise<void> => {
    await ack();
    try {
      await client.views.open({
        trigger_id: body.trigger_id,
        view: createPostModal({ privateMetadata: encodeMetadata({ slackChannel: body.user.id }) }),
      });
    } catch (error) {
      deps.logger.warn({ err: error }, 'views.open failed for the post form from the global shortcut');
    }
  };
}
