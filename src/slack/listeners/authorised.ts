/**
 * The workspace a Slack request acts for: the one Bolt authorised, never a team id read from the
 * body. Payloads carry several team ids that need not agree (`team.id`, `user.team_id`,
 * `view.team_id`, `view.app_installed_team_id`, an event's `team_id`): in Slack Connect channels and
 * on Enterprise Grid the person's team differs from the installation's. Bolt picks one of them to
 * find the installation (and so the token its `client` carries): that is `context.teamId`, and the
 * only team a listener may read, change or send anything of. The one place that decides.
 *
 * An org-wide Enterprise Grid install authorises the enterprise, not a workspace: Bolt's
 * `context.teamId` is then Slack's word for which workspace of the org the request comes from.
 * It is taken only when that workspace may be served by the org's installation (it has no
 * installation of its own from outside the enterprise, and is not bound to another enterprise);
 * the first request binds it (store/installations.ts `bindEnterprise`). Anything else acts for
 * no workspace: the listener answers that it could not read the request, and does nothing.
 */
import type { AnyMiddlewareArgs, Context, Middleware } from '@slack/bolt';
import type { Logger } from '../../logger.ts';
import type { RedisInstallationStore } from '../../store/installations.ts';

/** Where {@link authoriseWorkspace} leaves its decision on Bolt's context. */
const ACTING_TEAM = 'collabActingTeamId';

/** The workspace this request acts for, as {@link authoriseWorkspace} decided; undefined: none. */
export function authorisedTeam(context: Context): string | undefined {
  const team: unknown = context[ACTING_TEAM];
  return typeof team === 'string' && team !== '' ? team : undefined;
}

/**
 * The global middleware (registered before every listener) that decides the acting workspace.
 * `installations`: multi-workspace mode; without it (one workspace, one token, one service key)
 * whatever workspace Bolt names is the deployment's.
 */
export function authoriseWorkspace(
  installations: RedisInstallationStore | undefined,
  logger: Logger,
): Middleware<AnyMiddlewareArgs> {
  return async ({ context, next }) => {
    const acting = await decide(context, installations).catch((error: unknown) => {
      logger.warn({ err: error, enterpriseId: context.enterpriseId }, 'could not check an org-wide install');
      return undefined;
    });
    if (acting === undefined && context.isEnterpriseInstall) {
      logger.warn(
        { teamId: context.teamId, enterpriseId: context.enterpriseId },
        'an org-wide install named a workspace it does not serve; nothing done',
      );
    }
    context[ACTING_TEAM] = acting;
    await next();
  };
}

async function decide(
  context: Context,
  installations: RedisInstallationStore | undefined,
): Promise<string | undefined> {
  const { teamId, enterpriseId } = context;
  if (!context.isEnterpriseInstall || !installations) return teamId;
  // Org-wide install (the place to extend when the enterprise itself becomes the unit).
  if (!teamId || !enterpriseId) return undefined;
  return (await installations.bindEnterprise(teamId, enterpriseId)) ? teamId : undefined;
}
