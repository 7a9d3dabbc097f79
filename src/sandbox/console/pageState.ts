/** What the page shows of Slack for one person: who they are, the channels, messages, modal and Home. */
import { SHORTCUTS } from '../../render/ids.ts';
import type { ConsoleModel } from './model.ts';
import type { ConsoleOptions } from './options.ts';

/** The names of the manifest's message shortcuts, by callback id (slack-manifest.yml). */
export const SHORTCUT_NAMES: Record<string, string> = {
  [SHORTCUTS.createPostFromMessage]: 'Create post from message',
  [SHORTCUTS.createPostFromThread]: 'Create post from thread',
  [SHORTCUTS.commentOnPost]: 'Comment on post',
  [SHORTCUTS.resolvePost]: 'Resolve post',
};

/** The manifest's global shortcuts (the composer's shortcuts menu), by callback id. */
export const GLOBAL_SHORTCUT_NAMES: Record<string, string> = {
  [SHORTCUTS.newPost]: 'New post',
};

/** The page's state for `requested` (the first person when that is no one known). */
export function pageState(options: ConsoleOptions, model: ConsoleModel, requested: string) {
  const { slack, botUserId } = options;
  const user = options.users.some((u) => u.id === requested) ? requested : (options.users[0]?.id ?? '');
  const home = slack.views.home.get(user)?.view;
  const modal = model.modalFor(user);
  const dmChannels = [`D_${user}`];
  return {
    me: user,
    teamName: 'Local Workspace',
    botUserId,
    appName: 'Collab',
    command: options.command,
    users: options.users.map((u) => ({
      id: u.id,
      name: u.name,
      real_name: u.real_name,
      display_name: u.profile.display_name || u.real_name,
      tz: u.tz,
    })),
    channels: [
      ...options.channels.map((c) => ({ id: c.id, name: c.name, kind: 'channel' })),
      ...dmChannels.map((id) => ({ id, name: 'Collab', kind: 'app' })),
    ],
    shortcuts: Object.entries(SHORTCUT_NAMES).map(([callback_id, name]) => ({ callback_id, name })),
    globalShortcuts: Object.entries(GLOBAL_SHORTCUT_NAMES).map(([callback_id, name]) => ({
      callback_id,
      name,
    })),
    messages: model.messagesFor(user),
    modal: modal ?? null,
    home: home ?? null,
    emulator: options.emulatorUrl !== undefined,
  };
}
