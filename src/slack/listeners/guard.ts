/**
 * Who may change settings — connect or disconnect the service, link or unlink channels (and later
 * follow channels, manage digests): workspace admins and owners (users.info, cached briefly), and
 * the Slack user ids the operator lists in ADMIN_USER_IDS. Everyone else hears a polite no and
 * nothing is done. The one place that decides.
 */
import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { authorisedTeam } from './authorised.ts';
import type { ListenerDeps } from './deps.ts';
import { withDeadline } from './shared.ts';

export const NOT_ALLOWED =
  'Only workspace admins and owners can change the app’s settings (connecting the service, linking channels). Ask one of them, and they can do it in a moment.';

export const NOT_CHECKED =
  'I could not check with Slack whether you are a workspace admin, so nothing was changed. Try again in a minute.';

/** How long an answer of users.info about someone's role is trusted. */
const ROLE_TTL_SECONDS = 60;
/** Slack's 3 s include this lookup: a slow users.info reads as "could not check". */
const ROLE_DEADLINE_MS = 1500;

export type Permission = 'allowed' | 'refused' | 'unknown';

export async function settingsPermission(
  deps: Pick<ListenerDeps, 'store' | 'settings' | 'logger'>,
  client: WebClient,
  teamId: string,
  userId: string,
): Promise<Permission> {
  if (deps.settings?.adminUserIds.includes(userId)) return 'allowed';
  const cacheKey = `slack-user-admin:${userId}`;
  const cached = await deps.store.cache.get<boolean>(teamId, cacheKey);
  if (typeof cached === 'boolean') return cached ? 'allowed' : 'refused';
  const answer = await withDeadline(client.users.info({ user: userId }), ROLE_DEADLINE_MS);
  const user = answer?.user;
  if (!user) {
    deps.logger.warn({ teamId, userId }, 'could not check whether a user is an admin');
    return 'unknown';
  }
  const admin = user.is_admin === true || user.is_owner === true || user.is_primary_owner === true;
  await deps.store.cache.set(teamId, cacheKey, admin, ROLE_TTL_SECONDS);
  return admin ? 'allowed' : 'refused';
}

/** The words for a refusal. */
export function refusal(permission: Exclude<Permission, 'allowed'>): string {
  return permission === 'unknown' ? NOT_CHECKED : NOT_ALLOWED;
}

/** The refusal to say, or undefined when the person may change settings. */
export async function settingsRefusal(
  deps: Pick<ListenerDeps, 'store' | 'settings' | 'logger'>,
  client: WebClient,
  teamId: string,
  userId: string,
): Promise<string | undefined> {
  const permission = await settingsPermission(deps, client, teamId, userId);
  return permission === 'allowed' ? undefined : refusal(permission);
}

/** A modal that only says something (a refusal on App Home, where there is no channel to answer in). */
export function noticeModal(title: string, text: string) {
  return {
    type: 'modal' as const,
    title: { type: 'plain_text' as const, text: title.slice(0, 24) },
    close: { type: 'plain_text' as const, text: 'OK' },
    blocks: [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text } }],
  };
}

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

/** Who pressed a settings button, where. */
export interface SettingsPress {
  args: ButtonArgs;
  teamId: string;
  userId: string;
}

/**
 * An App Home settings button (connect, disconnect): acked at once; only someone who may change
 * settings gets to `act` (anyone else is shown why in a modal: App Home has no channel to answer
 * in). A failure of `act` is logged as `failure`, never thrown; `after` runs whatever happened.
 */
export function settingsButton(
  deps: ListenerDeps,
  options: {
    failure: string;
    act(press: SettingsPress): Promise<void>;
    after?(press: SettingsPress): Promise<void>;
  },
) {
  return async (args: ButtonArgs): Promise<void> => {
    const { body, ack, client, context } = args;
    await ack();
    const teamId = authorisedTeam(context);
    if (!teamId) return;
    const press = { args, teamId, userId: body.user.id };
    try {
      const refused = await settingsRefusal(deps, client, teamId, press.userId);
      if (refused) {
        await client.views.open({ trigger_id: body.trigger_id, view: noticeModal('Not allowed', refused) });
      } else {
        await options.act(press);
      }
    } catch (error) {
      deps.logger.warn({ err: error, teamId }, options.failure);
    }
    await options.after?.(press);
  };
}
