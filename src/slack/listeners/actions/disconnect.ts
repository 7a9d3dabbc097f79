/** App Home's Disconnect button (it asks for confirmation first): deletes the saved connection. Admins only. */
import type { ListenerDeps } from '../deps.ts';
import { settingsButton } from '../guard.ts';
import { publishHome } from '../workspace.ts';

export function disconnectButton(deps: ListenerDeps) {
  return settingsButton(deps, {
    failure: 'could not disconnect',
    async act({ teamId, userId }) {
      const status = await deps.store.connections?.status(teamId);
      if (status && (await deps.store.connections?.remove(teamId))) {
        await deps.workspaces.invalidate?.(teamId);
        await deps.store.audit.record(teamId, { userId, action: 'disconnected', detail: status.baseUrl });
        deps.logger.info({ teamId, userId }, 'workspace disconnected from the service');
      }
    },
    async after({ args, teamId, userId }) {
      await publishHome(deps, args.client, teamId, userId);
    },
  });
}
