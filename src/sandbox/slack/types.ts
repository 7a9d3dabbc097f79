/**
 * Public types of the local Slack Web API stand-in.
 *
 * The shapes follow what Slack answers (snake_case, `ok` envelopes). They are the stand-in's own
 * types, not the Web API client's response types, so the stand-in stays usable without Bolt.
 */
import type { SlackRuleName, SlackRules, SlackRulesInput } from './rules.ts';

/** A user as `users.info` returns it (the fields the project reads, and a few more for realism). */
export interface SlackUser {
  id: string;
  team_id: string;
  name: string;
  real_name: string;
  deleted: boolean;
  tz: string;
  tz_label: string;
  tz_offset: number;
  is_admin: boolean;
  is_owner: boolean;
  is_bot: boolean;
  profile: {
    email?: string;
    display_name: string;
    real_name: string;
    image_48?: string;
  };
  /** Enterprise Grid: the person's place in the org (`users.info` answers it for Grid users). */
  enterprise_user?: {
    id: string;
    enterprise_id: string;
    enterprise_name: string;
    is_admin: boolean;
    is_owner: boolean;
    teams: string[];
  };
}

export interface WorkspaceSeed {
  id: string;
  name: string;
  domain: string;
}

/** An Enterprise Grid org: its `E…` id and its workspaces. */
export interface OrgSeed {
  id: string;
  name: string;
  domain: string;
  workspaces: WorkspaceSeed[];
}

/** A channel of the stand-in's little world; channels never seeded are synthesised on first use. */
export interface SlackChannel {
  id: string;
  name: string;
  is_private: boolean;
  /** Whether the bot is a member; `conversations.join` sets it. */
  is_member: boolean;
  /** archived: posts answer `is_archived` */
  is_archived?: boolean;
  /** deleted: every call naming it answers `channel_not_found` */
  is_deleted?: boolean;
  /**
   * Slack Connect: shared with another organisation (`conversations.info` answers `is_shared`,
   * `is_ext_shared`, `shared_team_ids`); events from it carry `is_ext_shared_channel: true`.
   */
  is_ext_shared?: boolean;
  /** The workspaces it is shared between (the installation's first); default the installation's and the partner's. */
  shared_team_ids?: string[];
}

/** A change of a channel's life: archived or back, deleted, the bot removed or invited back. */
export interface ChannelChange {
  archived?: boolean;
  deleted?: boolean;
  member?: boolean;
}

/** One request the stand-in received. */
export interface RecordedCall {
  /** Web API method (`chat.postMessage`), or `response_url` for a POST to a response URL. */
  method: string;
  /**
   * Arguments as sent, parsed from a form or JSON body (and the query string). Form values stay
   * strings, as Slack receives them; JSON-encoded fields (`blocks`, `attachments`, `view`, `unfurls`,
   * `metadata`, …) are parsed. A `token` form field is moved out to {@link RecordedCall.token}.
   */
  args: Record<string, unknown>;
  /** The token as sent: `Authorization: Bearer …` or a `token` form field. Never validated. */
  token?: string;
  /** `Date.now()` when the request was received. */
  at: number;
  /** Request path; set for `response_url` calls (`/response/<id>`). */
  path?: string;
  /** HTTP status the stand-in answered. */
  status: number;
  /** Body the stand-in answered (`{ ok: true, … }` or `{ ok: false, error }`). */
  response: Record<string, unknown>;
  /**
   * Set when the stand-in refused the call for one of Slack's rules (`rateLimits`, a lifetime), or
   * because a test scheduled it (`failNext`): which, and the `Retry-After` seconds of a 429.
   */
  refused?: { by: SlackRuleName | 'failNext'; retryAfterSec?: number };
  /** Made while a `Retry-After` the stand-in gave for the same key was still running. */
  duringRetryAfter?: boolean;
  /** The workspace a Web API call counted against (an org-wide token: its `team_id`, else the enterprise). */
  workspace?: string;
}

/** Counts of one method (or of every method, or `response_url`) in {@link SlackTraffic}. */
export interface MethodTraffic {
  calls: number;
  /** answered `ok: true` */
  ok: number;
  /** answered 429 `ratelimited` */
  ratelimited: number;
  /** made while a `Retry-After` for the same key was still running */
  duringRetryAfter: number;
  /** refused for a lifetime (expired or spent `response_url`, `trigger_id`, workflow token) */
  expired: number;
}

/** A call the stand-in refused, in arrival order. */
export interface Refusal {
  method: string;
  at: number;
  status: number;
  error: string;
  by: SlackRuleName | 'failNext';
  retryAfterSec?: number;
  workspace?: string;
  channel?: string;
}

/** What the stand-in saw: the figures a burst benchmark prints. */
export interface SlackTraffic {
  /** By Web API method, and `response_url`. */
  methods: Record<string, MethodTraffic>;
  /** Every Web API call and `response_url` POST together. */
  total: MethodTraffic;
  refusals: Refusal[];
  /** Times (stand-in clock, epoch ms) of the messages `chat.postMessage` posted, by channel. */
  postedAt: Record<string, number[]>;
}

/** A message of the stand-in's state, as Slack would return it in `conversations.replies`. */
export interface StoredMessage {
  type: 'message';
  channel: string;
  ts: string;
  thread_ts?: string;
  /** Author: the bot user for messages posted through the API, the user for seeded messages. */
  user?: string;
  bot_id?: string;
  app_id?: string;
  team?: string;
  text: string;
  blocks?: unknown[];
  attachments?: unknown[];
  metadata?: unknown;
  /** Set for `chat.postEphemeral`: only this user sees the message. */
  ephemeralFor?: string;
  edited?: { user: string; ts: string };
  reply_count?: number;
  reply_users?: string[];
  latest_reply?: string;
  /** Unfurls attached by `chat.unfurl`, by URL. */
  unfurls?: Record<string, unknown>;
}

/** A view as Slack returns it from `views.open` / `views.update` / `views.push` / `views.publish`. */
export interface SlackViewObject {
  id: string;
  team_id: string;
  type: string;
  callback_id: string;
  external_id: string;
  private_metadata: string;
  title: unknown;
  submit: unknown;
  close: unknown;
  blocks: unknown[];
  state: { values: Record<string, Record<string, unknown>> };
  hash: string;
  clear_on_close: boolean;
  notify_on_close: boolean;
  root_view_id: string | null;
  previous_view_id: string | null;
  app_id: string;
  app_installed_team_id: string;
  bot_id: string;
}

export interface StoredView {
  view: SlackViewObject;
  /** The method that created it. */
  via: 'views.open' | 'views.push' | 'views.publish';
  trigger_id?: string;
  /** App Home owner (`views.publish`). */
  user_id?: string;
  /** How many times `views.update` / `views.publish` replaced it. */
  updates: number;
}

export interface StoredViews {
  /** Every modal and App Home view, by `view.id`. */
  byId: Map<string, StoredView>;
  /** App Home views, by user id. */
  home: Map<string, StoredView>;
}

export interface SlackStandInOptions {
  /** Port to listen on; default 0 (a free port). */
  port?: number;
  /** Host to listen on; default 127.0.0.1. */
  host?: string;
  /** Seed of `users.info` / `users.lookupByEmail`; default {@link DEFAULT_USERS}. */
  users?: SlackUser[];
  /** Seed of `conversations.info`; unknown channel ids are synthesised on first use. */
  channels?: SlackChannel[];
  /** Workspace of the default installation; default `T_LOCAL`. */
  teamId?: string;
  /** Workspace name; default `Local Workspace`. */
  teamName?: string;
  /** Bot user of the default installation; default `U_BOT`. */
  botUserId?: string;
  /** Bot id of the default installation; default `B_LOCAL`. */
  botId?: string;
  /** App id; default `A_LOCAL`. */
  appId?: string;
  /** Socket Mode: the WebSocket URL `apps.connections.open` hands out; without it the call fails. */
  socketModeUrl?: string;
  /**
   * Token rotation (`token_rotation_enabled`): `oauth.v2.access` with a code also hands out a
   * refresh token and `expires_in`; `grant_type=refresh_token` trades a refresh token (once) for
   * a new pair. Default false.
   */
  tokenRotation?: boolean;
  /**
   * Slack's rules to enforce (SLACK-FACTS.md): `'strict'` (all, with Slack's numbers), `'off'`
   * (default: the kind stand-in), or each rule on, off or with numbers of its own. See `rules.ts`.
   */
  rules?: SlackRulesInput;
  /** The clock of every rule and recorded time; default the real one. Tests move it instead of sleeping. */
  now?: () => Date;
  /**
   * Enterprise Grid: the default installation's workspace belongs to this org; with `orgWide` the
   * default installation is the org-wide install itself (its token speaks for the enterprise),
   * added to the workspaces `granted` (default all).
   */
  enterprise?: OrgSeed & { orgWide?: boolean; granted?: string[] };
}

export interface FailNextOptions {
  /** How many consecutive calls fail; default 1. */
  times?: number;
  /** `Retry-After` seconds for `ratelimited`; default 1. */
  retryAfterSec?: number;
}

export interface WaitForOptions {
  /** Safety net only, never a means of synchronisation; default 5000. */
  timeoutMs?: number;
}

export interface SlackStandIn {
  /** Value for the Web API client's `slackApiUrl`; ends in `/api/`. */
  url: string;
  /** `http://host:port` of the stand-in. */
  origin: string;
  /** Every Web API call, in arrival order. */
  calls: RecordedCall[];
  /** Every POST to a response URL served by this stand-in. */
  responseUrlCalls: RecordedCall[];
  /**
   * A response URL served by this stand-in (`${origin}/response/<id>`); a fresh id when omitted.
   * Its lifetime starts the first time it is minted (or issued), as Slack's starts with the interaction.
   */
  responseUrl(id?: string): string;
  /**
   * Resolves with the first call — already recorded or future, Web API or `response_url` — that
   * matches. Rejects on timeout with the list of recorded methods.
   */
  waitFor(predicate: (call: RecordedCall) => boolean, options?: WaitForOptions): Promise<RecordedCall>;
  /** Listens to every call (Web API and `response_url`); returns the unsubscribe function. */
  onCall(listener: (call: RecordedCall) => void): () => void;
  /**
   * The next `times` calls of `method` (or `response_url`) fail with `error`. `ratelimited`
   * answers HTTP 429 with `Retry-After`, as Slack does; other errors answer 200 `{ ok: false, error }`
   * (a `response_url` failure answers 404 for `expired_url`/`used_url`, else 400).
   */
  failNext(method: string, error: string, options?: FailNextOptions): void;
  /**
   * The next POST to a response URL whose body matches is never answered and never recorded, as
   * when its sender dies before Slack has it: resolves with its body once it has arrived. The
   * sender waits until it gives up, or its connection closes.
   */
  holdNextResponse(predicate: (args: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Messages by channel id, in posting order (ephemeral ones included, flagged `ephemeralFor`). */
  messages: Map<string, StoredMessage[]>;
  /** Modals and App Home views. */
  views: StoredViews;
  /** Adds a message written by a person (not through the API), e.g. the target of a shortcut. */
  seedMessage(channel: string, message: { user: string; text: string; thread_ts?: string }): StoredMessage;
  /** Archives, unarchives or deletes a channel, or removes or re-invites the bot, as Slack people do. */
  changeChannel(id: string, change: ChannelChange): SlackChannel;
  /** The rules in force. */
  readonly rules: SlackRules;
  /** Turns rules on or off (or gives them numbers) from now on; rules not named stay as they are. */
  setRules(rules: SlackRulesInput): SlackRules;
  /**
   * Slack sends `payload` (a slash command's fields, an interactivity payload, an event envelope):
   * its `trigger_id`, `response_url`(s) and workflow token start their lifetimes now. Ones never
   * issued start at their first use.
   */
  issue(payload: unknown): void;
  /** A fresh Slack-looking `trigger_id`, issued now. */
  triggerId(): string;
  /** Counts per method, refusals, calls inside a running `Retry-After`, posting times by channel. */
  traffic(): SlackTraffic;
  /** An org admin adds the org-wide app to a workspace of its org (or removes it: `granted` false). */
  grantOrgWorkspace(enterpriseId: string, teamId: string, granted?: boolean): void;
  /**
   * Clears calls, messages, views, pending failures and holds, issued installations, rate-limit
   * buckets and lifetimes; keeps the seeds and the rules.
   */
  reset(): void;
  close(): Promise<void>;
}
