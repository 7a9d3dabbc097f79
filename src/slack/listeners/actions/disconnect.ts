/** App Home's Disconnect button (it asks for confirmation first): deletes the saved connection. Admins only. */
import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { ListenerDeps } from '../deps.ts';
import { noticeModal, settingsRefusal } from '../guard.ts';
import { publishHome } from '../workspace.ts';

type Args = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

export function disconnectButton(deps: ListenerDeps) {
  return async ({ body, ack, client, context }: Args): Promise<void> => {
    await ack();
    const teamId = context.teamId ?? body.team?.id ?? body.user.team_id;
    if (!teamId) return;
    const userId = body.user.id;
    try {
      const refused = await settingsRefusal(deps, client, teamId, userId);
      if (refused) {
        await client.views.open({ trigger_id: body.trigger_id, view: noticeModal('Not allowed', refused) });
        return;
      }
      const status = await deps.store.connections?.status(teamId);
      if (status && (await deps.store.connections?.remove(teamId))) {
        await deps.workspaces.invalidate?.(teamId);
        await deps.store.audit.record(teamId, { userId, action: 'disconnected', detail: status.baseUrl });
        deps.logger.info({ teamId, userId }, 'workspace disconnected from the service');
      }
    } catch (error) {
      deps.logger.warn({ err: error, teamId }, 'could not disconnect');
    }
    await publishHome(deps, client, teamId, userId);
  };
}
