/** `app_home_opened`: publishes the Home tab (connection state, Connect / Disconnect, recent settings changes). */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { ListenerDeps } from '../deps.ts';
import { publishHome } from '../workspace.ts';

type Args = SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs;

export function appHomeOpenedListener(deps: ListenerDeps) {
  return async ({ event, body, context, client }: Args): Promise<void> => {
    if (event.tab !== 'home') return;
    const teamId = context.teamId ?? body.team_id;
    if (!teamId) return;
    await publishHome(deps, client, teamId, event.user);
  };
}
