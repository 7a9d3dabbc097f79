import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../../app.ts';

export function registerShortcuts(_app: App, _deps: ListenerDeps): void {}
