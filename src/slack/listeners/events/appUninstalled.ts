/**
 * `app_uninstalled`: the workspace removed the app. Everything kept about it goes: its Redis keys
 * (installation, connection, links, cards, caches, audit), its schedules and its pending jobs.
 * Bolt acks this event itself and skips authorization for it (the token is already dead).
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { authorisedTeam } from '../authorised.ts';
import type { ListenerDeps } from '../deps.ts';
import { forgetWorkspace } from '../workspace.ts';

type Args = SlackEventMiddlewareArgs<'app_uninstalled'> & AllMiddlewareArgs;

export function appUninstalledListener(deps: ListenerDeps) {
  return async ({ context }: Args): Promise<void> => {
    const teamId = authorisedTeam(context);
    try {
      if (context.isEnterpriseInstall && context.enterpriseId) {
        await deps.store.installations?.deleteInstallation({
          isEnterpriseInstall: true,
          enterpriseId: context.enterpriseId,
          teamId: undefined,
        });
      }
      if (teamId) await forgetWorkspace(deps, teamId, 'app_uninstalled');
    } catch (error) {
      deps.logger.error({ err: error, teamId }, 'could not remove an uninstalled workspace’s data');
    }
  };
}
