/**
 * App Home's Connect / Reconnect button: opens the connect modal (base url prefilled on a
 * reconnect; the API key never sent back, only "a key is saved"). Admins only.
 */
import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { connectModal } from '../../../render/home.ts';
import type { ListenerDeps } from '../deps.ts';
import { noticeModal, settingsRefusal } from '../guard.ts';

type Args = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

export function connectButton(deps: ListenerDeps) {
  return async ({ body, ack, client, context }: Args): Promise<void> => {
    await ack();
    const teamId = context.teamId ?? body.team?.id ?? body.user.team_id;
    if (!teamId) return;
    try {
      const refused = await settingsRefusal(deps, client, teamId, body.user.id);
      if (refused) {
        await client.views.open({ trigger_id: body.trigger_id, view: noticeModal('Not allowed', refused) });
        return;
      }
      const status = await deps.store.connections?.status(teamId);
      await client.views.open({
        trigger_id: body.trigger_id,
        view: connectModal({ baseUrl: status?.baseUrl, keySaved: status !== undefined }),
      });
    } catch (error) {
      deps.logger.warn({ err: error, teamId }, 'could not open the connect modal');
    }
  };
}
