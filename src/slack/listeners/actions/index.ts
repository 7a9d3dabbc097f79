import type { AllMiddlewareArgs, App, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { ACTIONS } from '../../../render/ids.ts';
import type { ListenerDeps } from '../deps.ts';
import { routeBy } from '../route.ts';
import { cardStateButton } from './cardButton.ts';
import { commentButton } from './comment.ts';
import { connectButton } from './connect.ts';
import { disconnectButton } from './disconnect.ts';
import { homeHelpButton, homeNewPostButton, homeNotifyButton } from './home.ts';
import { openPostButton } from './openPost.ts';
import { pageButton } from './page.ts';

export function registerActions(app: App, deps: ListenerDeps): void {
  const page = pageButton(deps);
  const handlers: Array<readonly [string, Handler]> = [
    [ACTIONS.resolve, cardStateButton(deps, 'resolvePost')],
    [ACTIONS.reopen, cardStateButton(deps, 'unresolvePost')],
    [ACTIONS.comment, commentButton(deps)],
    [ACTIONS.pageNext, page],
    [ACTIONS.pagePrev, page],
    [ACTIONS.openPost, openPostButton()],
    [ACTIONS.connect, connectButton(deps)],
    [ACTIONS.disconnect, disconnectButton(deps)],
    [ACTIONS.homeNewPost, homeNewPostButton(deps)],
    [ACTIONS.homeHelp, homeHelpButton(deps)],
    [ACTIONS.homeNotify, homeNotifyButton(deps)],
  ];
  app.action(
    { type: 'block_actions' },
    routeBy((args: Args) => (args.action as { action_id?: string }).action_id, handlers),
  );
}

type Args = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;
type Handler = (args: Args) => Promise<void>;
