import type { App } from '@slack/bolt';
import { ACTIONS } from '../../../render/ids.ts';
import type { ListenerDeps } from '../deps.ts';
import { cardStateButton } from './cardButton.ts';
import { commentButton } from './comment.ts';
import { connectButton } from './connect.ts';
import { disconnectButton } from './disconnect.ts';
import { homeHelpButton, homeNewPostButton, homeNotifyButton } from './home.ts';
import { openPostButton } from './openPost.ts';
import { pageButton } from './page.ts';

export function registerActions(app: App, deps: ListenerDeps): void {
  app.action({ type: 'block_actions', action_id: ACTIONS.resolve }, cardStateButton(deps, 'resolvePost'));
  app.action({ type: 'block_actions', action_id: ACTIONS.reopen }, cardStateButton(deps, 'unresolvePost'));
  app.action({ type: 'block_actions', action_id: ACTIONS.comment }, commentButton(deps));
  const page = pageButton(deps);
  app.action({ type: 'block_actions', action_id: ACTIONS.pageNext }, page);
  app.action({ type: 'block_actions', action_id: ACTIONS.pagePrev }, page);
  app.action({ type: 'block_actions', action_id: ACTIONS.openPost }, openPostButton());
  app.action({ type: 'block_actions', action_id: ACTIONS.connect }, connectButton(deps));
  app.action({ type: 'block_actions', action_id: ACTIONS.disconnect }, disconnectButton(deps));
  app.action({ type: 'block_actions', action_id: ACTIONS.homeNewPost }, homeNewPostButton(deps));
  app.action({ type: 'block_actions', action_id: ACTIONS.homeHelp }, homeHelpButton(deps));
  app.action({ type: 'block_actions', action_id: ACTIONS.homeNotify }, homeNotifyButton(deps));
}
