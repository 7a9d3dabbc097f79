/** `app_home_opened`: publishes the Home tab (connection state, Connect / Disconnect, recent settings changes). */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { authorisedTeam } from '../authorised.ts';
import type { ListenerDeps } from '../deps.ts';
import { publishHome } from '../workspace.ts';

type Args = SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs;

export function appHomeOpenedListener(deps: ListenerDeps) {
  return async ({ event, context, client }: Args): Promise<void> => {
    if (event.tab !== 'home') return;
    const teamId = authorisedTeam(context);
    if (!teamId) return;
    await publishHome(deps, client, teamId, event.user);
  };
}
