/**
 * App Home's Connect / Reconnect button: opens the connect modal (base url prefilled on a
 * reconnect; the API key never sent back, only "a key is saved"). Admins only.
 */
import { connectModal } from '../../../render/home.ts';
import type { ListenerDeps } from '../deps.ts';
import { settingsButton } from '../guard.ts';

export function connectButton(deps: ListenerDeps) {
  return settingsButton(deps, {
    failure: 'could not open the connect modal',
    async act({ args, teamId }) {
      const status = await deps.store.connections?.status(teamId);
      await args.client.views.open({
        trigger_id: args.body.trigger_id,
        view: connectModal({ baseUrl: status?.baseUrl, keySaved: status !== undefined }),
      });
    },
  });
}
