import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../../app.ts';
import { messageListener } from './message.ts';

export function registerEvents(app: App, deps: ListenerDeps): void {
  app.event('message', messageListener(deps));
}
