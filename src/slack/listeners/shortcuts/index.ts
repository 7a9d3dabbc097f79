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
  // Message shortcuts and global shortcuts have their own callback ids: one table serves both.
  const handlers: Array<readonly [string, Handler]> = [
    [SHORTCUTS.createPostFromMessage, createPostFromMessageShortcut(deps) as Handler],
    [SHORTCUTS.createPostFromThread, createPostFromThreadShortcut(deps) as Handler],
    [SHORTCUTS.newPost, newPostShortcut(deps) as Handler],
    [SHORTCUTS.commentOnPost, commentOnPostShortcut(deps) as Handler],
    [SHORTCUTS.resolvePost, resolvePostShortcut(deps) as Handler],
  ];
  app.shortcut(
    {},
    routeBy((args: Args) => args.shortcut.callback_id, handlers),
  );
}

type Args = SlackShortcutMiddlewareArgs & AllMiddlewareArgs;
type Handler = (args: Args) => Promise<void>;
