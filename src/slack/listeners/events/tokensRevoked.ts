/**
 * `tokens_revoked`: when the bot token is revoked the app can no longer act in the workspace, so
 * its data goes as on uninstall. Revoked user tokens alone change nothing (the app keeps none).
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { authorisedTeam } from '../authorised.ts';
import type { ListenerDeps } from '../deps.ts';
import { forgetWorkspace } from '../workspace.ts';

type Args = SlackEventMiddlewareArgs<'tokens_revoked'> & AllMiddlewareArgs;

export function tokensRevokedListener(deps: ListenerDeps) {
  return async ({ event, context }: Args): Promise<void> => {
    if ((event.tokens.bot ?? []).length === 0) return;
    const teamId = authorisedTeam(context);
    if (!teamId) return;
    try {
      await forgetWorkspace(deps, teamId, 'tokens_revoked');
    } catch (error) {
      deps.logger.error(
        { err: error, teamId },
        'could not remove the data of a workspace whose token was revoked',
      );
    }
  };
}
