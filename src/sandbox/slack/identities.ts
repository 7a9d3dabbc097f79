/**
 * The identity fields of payloads from beyond one workspace, ready to spread into the payload
 * builders (payloads.ts, sign.ts). Shapes follow Slack's own fixtures: bolt-python's scenario tests
 * `test_events_org_apps.py` (org-wide install: `authorizations[0].team_id` null,
 * `is_enterprise_install` true, `W…` ids) and `test_events_shared_channels.py` (shared channel:
 * the envelope names the source workspace and org, `authorizations` the installation), Slack's
 * sample payloads for organisation-wide apps, and Bolt's own reading of them (`team: null` in
 * interactivity payloads of an org-wide install; `view.app_installed_team_id` when the view's app
 * is another workspace's).
 *
 *     const grid = orgWide();
 *     blockActions({ ...grid.interaction, user: 'W_ADA', actions });
 *     eventBody(messageEvent({ ...grid.author, channel, user: 'W_ADA', text }), grid.envelope);
 *     slashCommandBody({ ...grid.command, command, text, user_id: 'W_ADA', … });
 */
import { CONNECT_PARTNER, GRID_ORG, ORG_INSTALLATION } from './organisations.ts';
import type { EventEnvelopeOptions, PayloadWorkspace } from './payloads.ts';
import type { SlashCommandFields } from './sign.ts';
import type { OrgSeed, WorkspaceSeed } from './types.ts';

export interface IdentityContext {
  /** Options of the interactivity builders: blockActions, shortcuts, viewSubmission, blockSuggestion. */
  interaction: PayloadWorkspace;
  /** Options of eventEnvelope / eventBody. */
  envelope: EventEnvelopeOptions;
  /** Fields of slashCommandBody. */
  command: Pick<
    SlashCommandFields,
    'team_id' | 'team_domain' | 'enterprise_id' | 'enterprise_name' | 'is_enterprise_install'
  >;
  /** Fields of messageEvent: the author's workspace. */
  author: { team: string; user_team?: string; source_team?: string };
}

/**
 * Someone in a workspace of a Grid org where the app is installed org-wide: interactivity has
 * `team: null`, `enterprise`, `is_enterprise_install: true` and `user.team_id` the workspace;
 * events carry `enterprise_id` and an authorization of the enterprise (`team_id: null`); slash
 * commands `enterprise_id`, `enterprise_name` and `is_enterprise_install=true`.
 */
export function orgWide(
  options: { org?: OrgSeed; workspace?: WorkspaceSeed; botUserId?: string } = {},
): IdentityContext {
  const org = options.org ?? GRID_ORG;
  const workspace = options.workspace ?? org.workspaces[0];
  if (workspace === undefined) throw new Error(`Grid org ${org.id} has no workspace`);
  const enterprise = { id: org.id, name: org.name };
  const base = {
    team_id: workspace.id,
    team_domain: workspace.domain,
    enterprise,
    is_enterprise_install: true,
  };
  return {
    interaction: base,
    envelope: { ...base, botUserId: options.botUserId ?? ORG_INSTALLATION.botUserId },
    command: {
      team_id: workspace.id,
      team_domain: workspace.domain,
      enterprise_id: org.id,
      enterprise_name: org.name,
      is_enterprise_install: true,
    },
    author: { team: workspace.id },
  };
}

export interface InstalledWorkspace {
  team_id: string;
  /** The installation's org, when it is on Grid. */
  enterprise_id?: string;
  botUserId?: string;
}

export interface PartnerWorkspace {
  team_id: string;
  team_domain: string;
  enterprise?: { id: string; name: string };
}

/**
 * Someone of another organisation acting in a Slack Connect channel shared with the installation:
 * events come with the partner's workspace (and org) in the envelope, the installation in
 * `authorizations`, and `is_ext_shared_channel: true`; the author's `team`, `user_team` and
 * `source_team` are the partner's. Interactivity names the person's own workspace in `team` and
 * `user.team_id`; a view the app opened says where the app lives in `app_installed_team_id`.
 * Slash commands: Slack does not document what an external person's command carries; the
 * stand-in assumes their own workspace in `team_id`, the case where an app must not act for it.
 */
export function sharedChannel(
  options: { installation?: InstalledWorkspace; partner?: PartnerWorkspace } = {},
): IdentityContext {
  const installation = options.installation ?? { team_id: 'T_LOCAL' };
  const partner = options.partner ?? {
    team_id: CONNECT_PARTNER.teamId,
    team_domain: CONNECT_PARTNER.teamDomain,
  };
  const team = { team_id: partner.team_id, team_domain: partner.team_domain };
  return {
    interaction: {
      ...team,
      user_team_id: partner.team_id,
      ...(partner.enterprise === undefined ? {} : { enterprise: partner.enterprise }),
    },
    envelope: {
      ...team,
      ...(partner.enterprise === undefined ? {} : { enterprise: partner.enterprise }),
      authorizations: [
        {
          enterprise_id: installation.enterprise_id ?? null,
          team_id: installation.team_id,
          user_id: installation.botUserId ?? 'U_BOT',
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: true,
    },
    command: {
      ...team,
      ...(partner.enterprise === undefined
        ? {}
        : { enterprise_id: partner.enterprise.id, enterprise_name: partner.enterprise.name }),
    },
    author: { team: partner.team_id, user_team: partner.team_id, source_team: partner.team_id },
  };
}
