import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.ts';
import { appHomeOpenedListener } from './appHomeOpened.ts';
import { appUninstalledListener } from './appUninstalled.ts';
import { linkSharedListener } from './linkShared.ts';
import { messageListener } from './message.ts';
import { botMembershipListener, CHANNEL_CHANGES, slackChannelListener } from './slackChannelChanges.ts';
import { tokensRevokedListener } from './tokensRevoked.ts';

export function registerEvents(app: App, deps: ListenerDeps): void {
  app.event('message', messageListener(deps));
  app.event('app_home_opened', appHomeOpenedListener(deps));
  app.event('link_shared', linkSharedListener(deps));
  app.event('app_uninstalled', appUninstalledListener(deps));
  app.event('tokens_revoked', tokensRevokedListener(deps));
  for (const type of Object.keys(CHANNEL_CHANGES) as Array<keyof typeof CHANNEL_CHANGES>) {
    app.event(type, slackChannelListener(deps, type));
  }
  app.event('member_left_channel', botMembershipListener(deps, 'member_left_channel'));
  app.event('member_joined_channel', botMembershipListener(deps, 'member_joined_channel'));
}
