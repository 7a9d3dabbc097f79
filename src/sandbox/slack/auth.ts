/**
 * Who the app is, and where: `auth.test`, `auth.teams.list`, `team.info`, and the OAuth exchange
 * `oauth.v2.access` that issues installations — a workspace (`good-code`: T_OTHER) or a Grid org
 * installed org-wide (`org-code`: E_ORG, shaped after Slack's sample response for
 * organisation-wide apps: `team: null`, `enterprise`, `is_enterprise_install: true`).
 */
import { fail, type Handler } from './handler.ts';
import { ORG_INSTALLATION } from './organisations.ts';
import { stringArg } from './request.ts';
import type { Installation, SlackWorld } from './world.ts';

/** What `oauth.v2.access` issues for the code `good-code`. */
export const OTHER_INSTALLATION = {
  code: 'good-code',
  accessToken: 'xoxb-test-other',
  teamId: 'T_OTHER',
  teamName: 'Other Workspace',
  teamDomain: 'other',
  botUserId: 'U_BOT_OTHER',
  botId: 'B_OTHER',
  authedUserId: 'U_OTHER_ADMIN',
  scope: 'channels:join,chat:write,commands,im:write,links:read,links:write,users:read,users:read.email',
} as const;

/** How long a rotating access token lives (Slack: 12 hours). */
export const TOKEN_LIFETIME_SECONDS = 12 * 3600;

/** `team` and `enterprise` of an OAuth answer: an org-wide install has no team. */
function identity(installation: Installation): Record<string, unknown> {
  const org = installation.enterprise;
  return {
    team: installation.isEnterpriseInstall ? null : { id: installation.teamId, name: installation.teamName },
    enterprise: org === undefined ? null : { id: org.id, name: org.name },
    is_enterprise_install: installation.isEnterpriseInstall === true,
  };
}

function otherInstallation(appId: string): Installation {
  return {
    teamId: OTHER_INSTALLATION.teamId,
    teamName: OTHER_INSTALLATION.teamName,
    teamDomain: OTHER_INSTALLATION.teamDomain,
    botUserId: OTHER_INSTALLATION.botUserId,
    botId: OTHER_INSTALLATION.botId,
    appId,
  };
}

/** The org-wide install of `org-code`; its org becomes known, the app added to the first workspace. */
function orgInstallation(world: SlackWorld, appId: string): Installation {
  const org = world.org(ORG_INSTALLATION.enterpriseId);
  if (org === undefined) throw new Error('the Grid org of ORG_INSTALLATION is not known');
  return {
    teamId: org.id,
    teamName: org.name,
    teamDomain: org.domain,
    botUserId: ORG_INSTALLATION.botUserId,
    botId: ORG_INSTALLATION.botId,
    appId,
    enterprise: { id: org.id, name: org.name, domain: org.domain },
    isEnterpriseInstall: true,
  };
}

const exchanged: Handler = ({ world, args, installation }) => {
  const code = stringArg(args, 'code');
  const isOrg = code === ORG_INSTALLATION.code;
  if (!isOrg && code !== OTHER_INSTALLATION.code) return fail('invalid_code');
  const issued = isOrg ? orgInstallation(world, installation.appId) : otherInstallation(installation.appId);
  const known = isOrg ? ORG_INSTALLATION : OTHER_INSTALLATION;
  world.issue(known.accessToken, issued);
  const rotating = world.tokenRotation ? world.rotatingPair(issued) : undefined;
  return {
    ok: true,
    app_id: installation.appId,
    authed_user: { id: known.authedUserId },
    scope: known.scope,
    token_type: 'bot',
    access_token: rotating?.accessToken ?? known.accessToken,
    ...(rotating ? { refresh_token: rotating.refreshToken, expires_in: TOKEN_LIFETIME_SECONDS } : {}),
    bot_user_id: known.botUserId,
    ...identity(issued),
  };
};

/** The workspace ids and names an installation may act in. */
function teamsOf(
  world: SlackWorld,
  installation: Installation,
): { id: string; name: string; domain: string }[] {
  const org = installation.enterprise === undefined ? undefined : world.org(installation.enterprise.id);
  return world.workspacesOf(installation).map((id) => {
    const seed = org?.workspaces.find((workspace) => workspace.id === id);
    return seed ?? { id, name: installation.teamName, domain: installation.teamDomain };
  });
}

export const authHandlers: Record<string, Handler> = {
  'auth.test': ({ installation }) => {
    const org = installation.enterprise;
    const domain = installation.isEnterpriseInstall
      ? `${installation.teamDomain}.enterprise`
      : installation.teamDomain;
    return {
      ok: true,
      url: `https://${domain}.slack.example/`,
      team: installation.teamName,
      user: 'collab',
      // An org-wide token answers for its enterprise: team_id is then the enterprise's id (E…).
      team_id: installation.teamId,
      user_id: installation.botUserId,
      bot_id: installation.botId,
      ...(org === undefined ? {} : { enterprise_id: org.id }),
      is_enterprise_install: installation.isEnterpriseInstall === true,
    };
  },

  'auth.teams.list': ({ world, installation }) => ({
    ok: true,
    teams: teamsOf(world, installation).map(({ id, name }) => ({ id, name })),
    response_metadata: { next_cursor: '' },
  }),

  'oauth.v2.access': (context) => {
    const { world, args } = context;
    if (stringArg(args, 'grant_type') !== 'refresh_token') return exchanged(context);
    // Token rotation: a refresh token is traded once for a new access token and refresh token.
    const renewed = world.refresh(stringArg(args, 'refresh_token') ?? '');
    if (renewed === undefined) return fail('invalid_refresh_token');
    return {
      ok: true,
      app_id: renewed.installation.appId,
      scope: OTHER_INSTALLATION.scope,
      token_type: 'bot',
      access_token: renewed.accessToken,
      refresh_token: renewed.refreshToken,
      expires_in: TOKEN_LIFETIME_SECONDS,
      bot_user_id: renewed.installation.botUserId,
      ...identity(renewed.installation),
    };
  },

  'team.info': ({ world, args, installation }) => {
    const teamId = stringArg(args, 'team') ?? stringArg(args, 'team_id') ?? installation.teamId;
    const installed = world.installations().find((i) => i.teamId === teamId);
    const team =
      installed === undefined
        ? teamsOf(world, installation).find((t) => t.id === teamId)
        : { id: installed.teamId, name: installed.teamName, domain: installed.teamDomain };
    if (team === undefined) return fail('team_not_found');
    return {
      ok: true,
      team: {
        id: team.id,
        name: team.name,
        domain: team.domain,
        email_domain: '',
        icon: { image_default: true, image_68: `https://slack.example/team/${team.id}_68.png` },
      },
    };
  },
};
