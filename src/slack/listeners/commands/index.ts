import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.ts';
import { collabCommand } from './collab.ts';

export function registerCommands(app: App, deps: ListenerDeps): void {
  app.command(deps.command, collabCommand(deps));
}
