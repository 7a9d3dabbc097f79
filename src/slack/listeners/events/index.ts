import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.ts';
import { appHomeOpenedListener } from './appHomeOpened.ts';
import { appUninstalledListener } from './appUninstalled.ts';
import { linkSharedListener } from './linkShared.ts';
import { messageListener } from './message.ts';
import { tokensRevokedListener } from './tokensRevoked.ts';

export function registerEvents(app: App, deps: ListenerDeps): void {
  app.event('message', messageListener(deps));
  app.event('app_home_opened', appHomeOpenedListener(deps));
  app.event('link_shared', linkSharedListener(deps));
  app.event('app_uninstalled', appUninstalledListener(deps));
  app.event('tokens_revoked', tokensRevokedListener(deps));
}
