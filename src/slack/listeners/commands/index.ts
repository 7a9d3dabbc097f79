import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../../app.ts';

export function registerCommands(_app: App, _deps: ListenerDeps): void {}
