/**
 * Organisations beyond one workspace (SLACK-FACTS.md, "Identities across organisations"):
 *
 * - an Enterprise Grid org (`E…`) of several workspaces, where the app can be installed
 *   org-wide: `oauth.v2.access` answers `team: null`, `enterprise`, `is_enterprise_install: true`;
 *   the installation is the enterprise's, and the app is only present in the workspaces an org
 *   admin has added it to (`auth.teams.list`); people have `W…` ids unique across the org;
 * - Slack Connect: a channel shared with another organisation, whose people act in it although
 *   they are not of the installation's workspace: `users.lookupByEmail` does not find them.
 */
import type { OrgSeed, SlackUser } from './types.ts';
import { makeSlackUser } from './users.ts';

/** The Grid org of the stand-in's org-wide install: two workspaces. */
export const GRID_ORG: OrgSeed = {
  id: 'E_ORG',
  name: 'Org Corp',
  domain: 'org-corp',
  workspaces: [
    { id: 'T_ORG_A', name: 'Org Corp A', domain: 'org-corp-a' },
    { id: 'T_ORG_B', name: 'Org Corp B', domain: 'org-corp-b' },
  ],
};

/**
 * What `oauth.v2.access` issues for the code `org-code`: an org-wide install of {@link GRID_ORG}
 * (shaped after Slack's sample response for organisation-wide apps: bot user `W…`, `team: null`).
 * The org admin has added the app to the first workspace only.
 */
export const ORG_INSTALLATION = {
  code: 'org-code',
  accessToken: 'xoxb-test-org',
  enterpriseId: GRID_ORG.id,
  enterpriseName: GRID_ORG.name,
  botUserId: 'W_BOT_ORG',
  botId: 'B_ORG',
  authedUserId: 'W_ORG_ADMIN',
  granted: ['T_ORG_A'],
  scope: 'channels:join,chat:write,commands,im:write,links:read,links:write,users:read,users:read.email',
} as const;

/** The other side of a Slack Connect channel: a workspace of another organisation. */
export const CONNECT_PARTNER = {
  teamId: 'T_PARTNER',
  teamDomain: 'partner',
  userId: 'U_PARTNER',
  email: 'pat@partner.example',
} as const;

/**
 * People of a Grid org: `W…` ids, each with a home workspace and the `enterprise_user` block
 * `users.info` answers on Grid. Ada (admin) and Grace, with the emails the emulator's members have.
 */
export function gridUsers(org: OrgSeed = GRID_ORG): SlackUser[] {
  const [first, second = first] = org.workspaces;
  if (first === undefined || second === undefined) throw new Error('a Grid org needs a workspace');
  const people = [
    {
      id: 'W_ADA',
      name: 'ada',
      real_name: 'Ada Lovelace',
      email: 'ada@example.com',
      home: first,
      admin: true,
    },
    {
      id: 'W_GRACE',
      name: 'grace',
      real_name: 'Grace Hopper',
      email: 'grace@example.com',
      home: second,
      admin: false,
    },
  ];
  return people.map((person) => ({
    ...makeSlackUser({
      id: person.id,
      team_id: person.home.id,
      name: person.name,
      real_name: person.real_name,
      email: person.email,
      is_admin: person.admin,
    }),
    enterprise_user: {
      id: person.id,
      enterprise_id: org.id,
      enterprise_name: org.name,
      is_admin: person.admin,
      is_owner: false,
      teams: org.workspaces.map((workspace) => workspace.id),
    },
  }));
}

/**
 * A person of another organisation, met in a Slack Connect channel: their `team_id` is their own
 * workspace's, so `users.lookupByEmail` from the installation does not find them.
 */
export function partnerUser(
  seed: { id?: string; email?: string; name?: string; real_name?: string; team_id?: string } = {},
): SlackUser {
  return makeSlackUser({
    id: seed.id ?? CONNECT_PARTNER.userId,
    team_id: seed.team_id ?? CONNECT_PARTNER.teamId,
    name: seed.name ?? 'pat',
    real_name: seed.real_name ?? 'Pat Partner',
    email: seed.email ?? CONNECT_PARTNER.email,
  });
}
