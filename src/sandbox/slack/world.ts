import { nextTs } from './ids.ts';
import { GRID_ORG, ORG_INSTALLATION } from './organisations.ts';
import { stringArg } from './request.ts';
import type {
  FailNextOptions,
  OrgSeed,
  SlackChannel,
  SlackStandInOptions,
  SlackUser,
  StoredMessage,
  StoredViews,
} from './types.ts';
import { defaultUsers } from './users.ts';

/**
 * Who a token speaks for: the default installation, or one issued by `oauth.v2.access`. An
 * org-wide install (Enterprise Grid) speaks for its enterprise: `teamId` is then the enterprise's
 * id, and the workspaces it may act in are the org's workspaces the app was added to.
 */
export interface Installation {
  teamId: string;
  teamName: string;
  teamDomain: string;
  botUserId: string;
  botId: string;
  appId: string;
  /** Enterprise Grid: the org of the installation's workspace, or the org installed org-wide. */
  enterprise?: { id: string; name: string; domain: string };
  /** Installed org-wide (`is_enterprise_install`). */
  isEnterpriseInstall?: boolean;
}

/** The workspace a call acts in: an org-wide token's `team_id` (else its enterprise), or the installation's own. */
export function workspaceOf(installation: Installation, args: Record<string, unknown>): string {
  if (installation.isEnterpriseInstall) return stringArg(args, 'team_id') ?? installation.teamId;
  return installation.teamId;
}

interface PendingFailure {
  error: string;
  remaining: number;
  retryAfterSec: number;
}

export interface Failure {
  error: string;
  retryAfterSec: number;
}

/** The stand-in's state: users, channels, messages, views, installations and scheduled failures. */
export class SlackWorld {
  readonly messages = new Map<string, StoredMessage[]>();
  readonly views: StoredViews = { byId: new Map(), home: new Map() };
  readonly defaultInstallation: Installation;
  private readonly userSeed: SlackUser[];
  private readonly channelSeed: SlackChannel[];
  private readonly users = new Map<string, SlackUser>();
  private readonly channels = new Map<string, SlackChannel>();
  private readonly issued = new Map<string, Installation>();
  /** refresh token → the installation it renews; each is traded once */
  private readonly refreshTokens = new Map<string, Installation>();
  private rotations = 0;
  readonly tokenRotation: boolean;
  private readonly openedDms = new Set<string>();
  private readonly failures = new Map<string, PendingFailure[]>();
  /** Grid orgs known to the stand-in, by enterprise id */
  private readonly orgs = new Map<string, OrgSeed>();
  /** enterprise id → the workspaces an org admin added the org-wide app to */
  private readonly grants = new Map<string, Set<string>>();
  private readonly grantSeed = new Map<string, string[]>();

  /** Socket Mode: what `apps.connections.open` answers. */
  readonly socketModeUrl: string | undefined;

  constructor(options: SlackStandInOptions) {
    this.socketModeUrl = options.socketModeUrl;
    this.tokenRotation = options.tokenRotation === true;
    const teamId = options.teamId ?? 'T_LOCAL';
    const org = options.enterprise;
    this.defaultInstallation = {
      teamId: org?.orgWide ? org.id : teamId,
      teamName: org?.orgWide ? org.name : (options.teamName ?? 'Local Workspace'),
      teamDomain: org?.orgWide ? org.domain : 'local',
      botUserId: options.botUserId ?? 'U_BOT',
      botId: options.botId ?? 'B_LOCAL',
      appId: options.appId ?? 'A_LOCAL',
      ...(org ? { enterprise: { id: org.id, name: org.name, domain: org.domain } } : {}),
      ...(org?.orgWide ? { isEnterpriseInstall: true } : {}),
    };
    if (org) this.addOrg(org, org.granted ?? org.workspaces.map((w) => w.id));
    this.addOrg(GRID_ORG, ORG_INSTALLATION.granted);
    this.userSeed = options.users ?? defaultUsers(teamId);
    this.channelSeed = options.channels ?? [];
    this.reset();
  }

  reset(): void {
    this.messages.clear();
    this.views.byId.clear();
    this.views.home.clear();
    this.issued.clear();
    this.refreshTokens.clear();
    this.openedDms.clear();
    this.failures.clear();
    this.grants.clear();
    for (const [id, granted] of this.grantSeed) this.grants.set(id, new Set(granted));
    this.users.clear();
    for (const user of this.userSeed) this.users.set(user.id, structuredClone(user));
    this.channels.clear();
    for (const channel of this.channelSeed) this.channels.set(channel.id, { ...channel });
  }

  installationFor(token: string | undefined): Installation {
    return (token === undefined ? undefined : this.issued.get(token)) ?? this.defaultInstallation;
  }

  issue(token: string, installation: Installation): void {
    this.issued.set(token, installation);
  }

  /** A new rotating pair for an installation: an access token it speaks for, a refresh token. */
  rotatingPair(installation: Installation): { accessToken: string; refreshToken: string } {
    this.rotations += 1;
    const accessToken = `xoxe.xoxb-${installation.teamId}-${this.rotations}`;
    const refreshToken = `xoxe-1-${installation.teamId}-${this.rotations}`;
    this.issue(accessToken, installation);
    this.refreshTokens.set(refreshToken, installation);
    return { accessToken, refreshToken };
  }

  /** Trades a refresh token for a new pair; undefined if unknown or already traded. */
  refresh(
    refreshToken: string,
  ): { installation: Installation; accessToken: string; refreshToken: string } | undefined {
    const installation = this.refreshTokens.get(refreshToken);
    if (installation === undefined) return undefined;
    this.refreshTokens.delete(refreshToken);
    return { installation, ...this.rotatingPair(installation) };
  }

  installations(): Installation[] {
    return [this.defaultInstallation, ...this.issued.values()];
  }

  /** Makes a Grid org known, its org-wide app added to `granted` (on every reset, too). */
  addOrg(org: OrgSeed, granted: readonly string[]): void {
    this.orgs.set(org.id, org);
    if (!this.grantSeed.has(org.id)) {
      this.grantSeed.set(org.id, [...granted]);
      this.grants.set(org.id, new Set(granted));
    }
  }

  org(enterpriseId: string): OrgSeed | undefined {
    return this.orgs.get(enterpriseId);
  }

  /** An org admin adds the org-wide app to a workspace of the org, or removes it. */
  grant(enterpriseId: string, teamId: string, granted: boolean): void {
    const set = this.grants.get(enterpriseId) ?? new Set<string>();
    if (granted) set.add(teamId);
    else set.delete(teamId);
    this.grants.set(enterpriseId, set);
  }

  /** The workspaces an installation may act in: its own, or for an org-wide install those it was added to. */
  workspacesOf(installation: Installation): string[] {
    if (!installation.isEnterpriseInstall || installation.enterprise === undefined)
      return [installation.teamId];
    return [...(this.grants.get(installation.enterprise.id) ?? [])];
  }

  /** Every workspace the stand-in knows: installations', and their orgs'. People of others are external. */
  private knownTeams(): Set<string> {
    const teams = new Set<string>();
    for (const installation of this.installations()) teams.add(installation.teamId);
    for (const org of this.orgs.values()) for (const workspace of org.workspaces) teams.add(workspace.id);
    return teams;
  }

  user(id: string): SlackUser | undefined {
    return this.users.get(id);
  }

  /**
   * The user with this email, as `users.lookupByEmail` finds them: never a person of another
   * organisation (Slack Connect), whose workspace the stand-in does not know.
   */
  userByEmail(email: string): SlackUser | undefined {
    const wanted = email.toLowerCase();
    const known = this.knownTeams();
    for (const user of this.users.values()) {
      if (user.profile.email?.toLowerCase() === wanted && known.has(user.team_id)) return user;
    }
    return undefined;
  }

  /** A channel by id; ids never seeded are synthesised (public, bot a member). */
  channel(id: string): SlackChannel {
    let channel = this.channels.get(id);
    if (channel === undefined) {
      channel = {
        id,
        name: id.startsWith('D') ? id : `channel-${id.toLowerCase()}`,
        is_private: id.startsWith('G'),
        is_member: true,
      };
      this.channels.set(id, channel);
    }
    return channel;
  }

  /** Marks a DM as opened; true if it was already open. */
  openDm(id: string): boolean {
    const already = this.openedDms.has(id);
    this.openedDms.add(id);
    return already;
  }

  channelMessages(channel: string): StoredMessage[] {
    let list = this.messages.get(channel);
    if (list === undefined) {
      list = [];
      this.messages.set(channel, list);
    }
    return list;
  }

  /** A message everyone sees (ephemeral messages cannot be addressed by `ts`). */
  findMessage(channel: string, ts: string): StoredMessage | undefined {
    return this.messages.get(channel)?.find((m) => m.ts === ts && m.ephemeralFor === undefined);
  }

  addMessage(message: Omit<StoredMessage, 'type' | 'ts'> & { ts?: string }): StoredMessage {
    const stored: StoredMessage = { type: 'message', ...message, ts: message.ts ?? nextTs() };
    this.channelMessages(stored.channel).push(stored);
    if (
      stored.thread_ts !== undefined &&
      stored.thread_ts !== stored.ts &&
      stored.ephemeralFor === undefined
    ) {
      const parent = this.findMessage(stored.channel, stored.thread_ts);
      if (parent !== undefined) {
        parent.thread_ts ??= parent.ts;
        parent.reply_count = (parent.reply_count ?? 0) + 1;
        parent.latest_reply = stored.ts;
        const author = stored.user ?? stored.bot_id;
        if (author !== undefined && !(parent.reply_users ?? []).includes(author)) {
          parent.reply_users = [...(parent.reply_users ?? []), author];
        }
      }
    }
    return stored;
  }

  removeMessage(message: StoredMessage): void {
    const list = this.messages.get(message.channel);
    if (list === undefined) return;
    const index = list.indexOf(message);
    if (index >= 0) list.splice(index, 1);
    if (message.thread_ts !== undefined && message.thread_ts !== message.ts) {
      const parent = this.findMessage(message.channel, message.thread_ts);
      if (parent?.reply_count !== undefined) {
        parent.reply_count = Math.max(0, parent.reply_count - 1);
        const replies = this.replies(message.channel, parent.ts);
        parent.latest_reply = replies.at(-1)?.ts ?? parent.ts;
      }
    }
  }

  /** Replies of a thread (parent excluded), in `ts` order. */
  replies(channel: string, threadTs: string): StoredMessage[] {
    return (this.messages.get(channel) ?? [])
      .filter((m) => m.thread_ts === threadTs && m.ts !== threadTs && m.ephemeralFor === undefined)
      .sort((a, b) => compareTs(a.ts, b.ts));
  }

  failNext(method: string, error: string, options: FailNextOptions = {}): void {
    const list = this.failures.get(method) ?? [];
    list.push({
      error,
      remaining: Math.max(1, options.times ?? 1),
      retryAfterSec: options.retryAfterSec ?? 1,
    });
    this.failures.set(method, list);
  }

  /** The failure scheduled for this call of `method`, if any (consumes it). */
  takeFailure(method: string): Failure | undefined {
    const list = this.failures.get(method);
    const head = list?.[0];
    if (list === undefined || head === undefined) return undefined;
    head.remaining -= 1;
    if (head.remaining <= 0) list.shift();
    if (list.length === 0) this.failures.delete(method);
    return { error: head.error, retryAfterSec: head.retryAfterSec };
  }
}

/** Orders Slack timestamps (`'1700000000.000100'`) numerically. */
export function compareTs(a: string, b: string): number {
  const [aSec = '0', aFrac = ''] = a.split('.');
  const [bSec = '0', bFrac = ''] = b.split('.');
  const bySeconds = Number(aSec) - Number(bSec);
  if (bySeconds !== 0) return bySeconds;
  return Number(aFrac.padEnd(6, '0')) - Number(bFrac.padEnd(6, '0'));
}
