/**
 * What listeners share about a workspace's settings: publishing App Home, checking a connection
 * url, and forgetting a workspace after an uninstall.
 */
import type { WebClient } from '@slack/web-api';
import { removeTeamJobs } from '../../operations/cleanup.ts';
import { homeView } from '../../render/home.ts';
import type { HomeState } from '../../render/homeState.ts';
import type { ListenerDeps } from './deps.ts';
import { settingsPermission } from './guard.ts';
import { enqueue } from './shared.ts';

export async function homeState(
  deps: ListenerDeps,
  client: WebClient,
  teamId: string,
  userId: string,
): Promise<HomeState> {
  const mode = deps.settings?.mode ?? 'single';
  const [permission, connection] = await Promise.all([
    settingsPermission(deps, client, teamId, userId),
    mode === 'multi' ? deps.store.connections?.status(teamId) : Promise.resolve(undefined),
  ]);
  const canManage = permission === 'allowed';
  return {
    teamId,
    userId,
    mode,
    connection,
    canManage,
    audit: canManage ? await deps.store.audit.recent(teamId, 10) : [],
    command: deps.command,
  };
}

/** Publishes the Home tab of one person. Never throws. */
export async function publishHome(
  deps: ListenerDeps,
  client: WebClient,
  teamId: string,
  userId: string,
): Promise<void> {
  try {
    const state = await homeState(deps, client, teamId, userId);
    await client.views.publish({ user_id: userId, view: homeView(state) });
    // The sections that need the service (its check, digests' next runs, recent operations) are
    // built by the publishHome job, which publishes the whole view again: never wait on the API here.
    if (state.mode === 'single' || state.connection) {
      await enqueue(
        deps,
        'publishHome',
        { teamId, userId, canManage: state.canManage, mode: state.mode, command: state.command },
        `home:${userId}:${Math.floor(Date.now() / HOME_DEDUP_MS)}`,
      );
    }
  } catch (error) {
    deps.logger.warn({ err: error, teamId }, 'could not publish App Home');
  }
}

/** Opening Home again within this window does not build it twice. */
const HOME_DEDUP_MS = 5000;

/**
 * Why a base url is not acceptable, or undefined when it is: https always; http only to this
 * machine (localhost, 127.0.0.1, ::1) and only where insecure urls are allowed.
 */
export function baseUrlProblem(raw: string, allowInsecure: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'That is not a URL. It looks like https://collab.example.com';
  }
  if (url.username || url.password)
    return 'Leave credentials out of the URL; the API key goes in its own field.';
  if (url.search || url.hash) return 'Give the base URL alone, without ? or #.';
  if (url.protocol === 'https:') return undefined;
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol === 'http:' && local && allowInsecure) return undefined;
  return url.protocol === 'http:'
    ? 'The URL must start with https:// (the API key travels with every request).'
    : 'The URL must start with https://';
}

/** Removes everything the app keeps about a workspace: its Redis keys, its schedules, its pending jobs. */
export async function forgetWorkspace(deps: ListenerDeps, teamId: string, why: string): Promise<void> {
  const removed = await removeTeamJobs(deps.queue.queueFor(teamId), teamId);
  await deps.workspaces.invalidate?.(teamId);
  const keys = await deps.store.teams.forget(teamId);
  deps.logger.info({ teamId, why, keys, ...removed }, 'workspace data removed');
}
