import type { App } from '@slack/bolt';
import { SHORTCUTS } from '../../../render/ids.ts';
import type { ListenerDeps } from '../deps.ts';
import { commentOnPostShortcut } from './commentOnPost.ts';
import { createPostFromMessageShortcut } from './createPostFromMessage.ts';
import { createPostFromThreadShortcut } from './createPostFromThread.ts';
import { newPostShortcut } from './newPost.ts';
import { resolvePostShortcut } from './resolvePost.ts';

export function registerShortcuts(app: App, deps: ListenerDeps): void {
  app.shortcut(
    { type: 'message_action', callback_id: SHORTCUTS.createPostFromMessage },
    createPostFromMessageShortcut(deps),
  );
  app.shortcut(
    { type: 'message_action', callback_id: SHORTCUTS.createPostFromThread },
    createPostFromThreadShortcut(deps),
  );
  app.shortcut({ type: 'shortcut', callback_id: SHORTCUTS.newPost }, newPostShortcut(deps));
  app.shortcut({ type: 'message_action', callback_id: SHORTCUTS.commentOnPost }, commentOnPostShortcut(deps));
  app.shortcut({ type: 'message_action', callback_id: SHORTCUTS.resolvePost }, resolvePostShortcut(deps));
}
