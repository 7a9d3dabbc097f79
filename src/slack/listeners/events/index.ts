import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { ListenerDeps } from '../deps.ts';
import { routeBy } from '../route.ts';
import { appHomeOpenedListener } from './appHomeOpened.ts';
import { appUninstalledListener } from './appUninstalled.ts';
import { linkSharedListener } from './linkShared.ts';
import { messageListener } from './message.ts';
import { botMembershipListener, CHANNEL_CHANGES, slackChannelListener } from './slackChannelChanges.ts';
import { tokensRevokedListener } from './tokensRevoked.ts';

export function registerEvents(app: App, deps: ListenerDeps): void {
  const handlers: Array<readonly [string, Handler]> = [
    ['message', messageListener(deps) as Handler],
    ['app_home_opened', appHomeOpenedListener(deps) as Handler],
    ['link_shared', linkSharedListener(deps) as Handler],
    ['app_uninstalled', appUninstalledListener(deps) as Handler],
    ['tokens_revoked', tokensRevokedListener(deps) as Handler],
    ...(Object.keys(CHANNEL_CHANGES) as Array<keyof typeof CHANNEL_CHANGES>).map(
      (type) => [type, slackChannelListener(deps, type) as Handler] as const,
    ),
    ['member_left_channel', botMembershipListener(deps, 'member_left_channel') as Handler],
    ['member_joined_channel', botMembershipListener(deps, 'member_joined_channel') as Handler],
  ];
  const types = new Set(handlers.map(([type]) => type));
  app.event(
    // Only the types handled: Bolt leaves any other event unanswered-for, as before.
    new RegExp(`^(${[...types].join('|')})$`),
    routeBy((args: Args) => args.event.type, handlers),
  );
}

type Args = SlackEventMiddlewareArgs & AllMiddlewareArgs;
type Handler = (args: Args) => Promise<void>;
