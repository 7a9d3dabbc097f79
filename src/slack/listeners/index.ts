/** Registers every listener, one Slack surface a folder. */
import type { App } from '@slack/bolt';
import { registerActions } from './actions/index.ts';
import { registerCommands } from './commands/index.ts';
import type { ListenerDeps } from './deps.ts';
import { registerEvents } from './events/index.ts';
import { registerFunctions } from './functions/index.ts';
import { registerOptions } from './options/index.ts';
import { registerShortcuts } from './shortcuts/index.ts';
import { registerViews } from './views/index.ts';

export function registerListeners(app: App, deps: ListenerDeps): void {
  registerCommands(app, deps);
  registerShortcuts(app, deps);
  registerActions(app, deps);
  registerViews(app, deps);
  registerEvents(app, deps);
  registerOptions(app, deps);
  registerFunctions(app, deps);
}
