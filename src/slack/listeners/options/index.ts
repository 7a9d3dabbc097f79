import type { App } from '@slack/bolt';
import { ACTIONS } from '../../../render/ids.ts';
import type { ListenerDeps } from '../deps.ts';
import { channelPickerOptions } from './channels.ts';

export function registerOptions(app: App, deps: ListenerDeps): void {
  app.options({ type: 'block_suggestion', action_id: ACTIONS.channelPicker }, channelPickerOptions(deps));
}
