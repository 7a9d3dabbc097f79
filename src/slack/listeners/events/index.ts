import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../../app.ts';

export function registerEvents(_app: App, _deps: ListenerDeps): void {}
