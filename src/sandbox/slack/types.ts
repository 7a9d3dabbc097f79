/**
 * Public types of the local Slack Web API stand-in.
 *
 * The shapes follow what Slack answers (snake_case, `ok` envelopes). They are the stand-in's own
 * types, not the Web API client's response types, so the stand-in stays usable without Bolt.
 */

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
  /** A response URL served by this stand-in (`${origin}/response/<id>`); a fresh id when omitted. */
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
  /** Clears calls, messages, views, pending failures and holds, and issued installations; keeps the seeds. */
  reset(): void;
  close(): Promise<void>;
}
