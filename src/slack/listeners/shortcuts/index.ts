import type { AllMiddlewareArgs, App, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { SHORTCUTS } from '../../../render/ids.ts';
import type { ListenerDeps } from '../deps.ts';
import { routeBy } from '../route.ts';
import { commentOnPostShortcut } from './commentOnPost.ts';
import { createPostFromMessageShortcut } from './createPostFromMessage.ts';
import { createPostFromThreadShortcut } from './createPostFromThread.ts';
import { newPostShortcut } from './newPost.ts';
import { resolvePostShortcut } from './resolvePost.ts';

export function registerShortcuts(app: App, deps: ListenerDeps): void {
  const byId = (args: Args) => args.shortcut.callback_id;
  app.shortcut(
    { type: 'message_action' },
    routeBy(byId, [
      [SHORTCUTS.createPostFromMessage, createPostFromMessageShortcut(deps) as Handler],
      [SHORTCUTS.createPostFromThread, createPostFromThreadShortcut(deps) as Handler],
      [SHORTCUTS.commentOnPost, commentOnPostShortcut(deps) as Handler],
      [SHORTCUTS.resolvePost, resolvePostShortcut(deps) as Handler],
    ]),
  );
  app.shortcut({ type: 'shortcut' }, routeBy(byId, [[SHORTCUTS.newPost, newPostShortcut(deps) as Handler]]));
}

type Args = SlackShortcutMiddlewareArgs & AllMiddlewareArgs;
type Handler = (args: Args) => Promise<void>;
