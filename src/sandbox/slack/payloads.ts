/**
 * Builders of realistic Slack payloads (interactivity and Events API), shaped after Slack's
 * documented payloads and typed with Bolt's own payload types. Serialise them with the helpers of
 * `sign.ts` (`interactionBody`, `eventBody`) and sign them before posting to Bolt.
 */

import { randomBytes } from 'node:crypto';
import type {
  BasicElementAction,
  BlockAction,
  BlockSuggestion,
  EnvelopedEvent,
  GlobalShortcut,
  MessageShortcut,
  types,
  ViewOutput,
  ViewStateValue,
  ViewSubmitAction,
} from '@slack/bolt';
import { nextTs } from './ids.ts';

/** Slack's deprecated verification token, still present in payloads; Bolt ignores it. */
export const LOCAL_VERIFICATION_TOKEN = 'local-verification-token';

/**
 * The workspace a payload comes from; defaults match the stand-in's defaults. `identities.ts`
 * has the settings of an Enterprise Grid org-wide install and of a Slack Connect channel.
 */
export interface PayloadWorkspace {
  team_id?: string;
  team_domain?: string;
  api_app_id?: string;
  /** Verification token; default {@link LOCAL_VERIFICATION_TOKEN}. */
  token?: string;
  /** Enterprise Grid: the org of the workspace (`enterprise`, `team.enterprise_id`/`enterprise_name`). */
  enterprise?: { id: string; name: string };
  /** Installed org-wide: interactivity payloads carry `team: null` and `is_enterprise_install: true`. */
  is_enterprise_install?: boolean;
  /** `user.team_id`: the team of the person acting (Slack Connect: another organisation's); default `team_id`. */
  user_team_id?: string;
}

interface ResolvedWorkspace {
  team_id: string;
  team_domain: string;
  api_app_id: string;
  token: string;
  enterprise: { id: string; name: string } | undefined;
  is_enterprise_install: boolean;
  user_team_id: string;
}

export type UserRef = string | { id: string; name?: string; username?: string };
export type ChannelRef = string | { id: string; name?: string };

/** A message as it appears inside an interaction payload (a stand-in `StoredMessage` fits). */
export interface MessageInput {
  ts: string;
  text?: string;
  user?: string;
  bot_id?: string;
  app_id?: string;
  team?: string;
  thread_ts?: string;
  blocks?: unknown[];
  attachments?: unknown[];
  metadata?: unknown;
  edited?: { user: string; ts: string };
  reply_count?: number;
  reply_users?: string[];
  latest_reply?: string;
}

/** An element action: `action_id` and whatever the element sends (`value`, `selected_option`, …). */
export interface ActionInput {
  action_id: string;
  block_id?: string;
  /** Element type; default `button`. */
  type?: string;
  value?: string;
  action_ts?: string;
  [key: string]: unknown;
}

export type SandboxElementAction = BasicElementAction & { value?: string; [key: string]: unknown };

export type ViewStateValues = Record<string, Record<string, ViewStateValue>>;

/** A view as the app knows it: a stand-in `SlackViewObject` fits, or just the fields a test cares about. */
export interface ViewInput {
  id: string;
  callback_id: string;
  private_metadata?: string;
  external_id?: string;
  /** Typically {@link ViewStateValues}; passed through as given. */
  state?: { values: Record<string, Record<string, unknown>> };
  hash?: string;
  type?: string;
  title?: unknown;
  blocks?: unknown[];
  root_view_id?: string | null;
  previous_view_id?: string | null;
  clear_on_close?: boolean;
  notify_on_close?: boolean;
  /** The workspace the app that opened the view is installed in (Slack Connect: not the person's). */
  app_installed_team_id?: string;
}

let counter = 0;

/** A Slack-looking `trigger_id` (`<digits>.<digits>.<hex>`); opaque to the app. */
export function newTriggerId(): string {
  counter += 1;
  return `${1_700_000_000_000 + counter}.${1_000_000 + counter}.${randomBytes(16).toString('hex')}`;
}

function workspace(input: PayloadWorkspace): ResolvedWorkspace {
  const team_id = input.team_id ?? 'T_LOCAL';
  return {
    team_id,
    team_domain: input.team_domain ?? 'local',
    api_app_id: input.api_app_id ?? 'A_LOCAL',
    token: input.token ?? LOCAL_VERIFICATION_TOKEN,
    enterprise: input.enterprise,
    is_enterprise_install: input.is_enterprise_install ?? false,
    user_team_id: input.user_team_id ?? team_id,
  };
}

type PayloadTeam = { id: string; domain: string; enterprise_id?: string; enterprise_name?: string } | null;

/** `team` of an interactivity payload: null for an org-wide install, as Slack sends it. */
function teamOf(ws: ResolvedWorkspace): PayloadTeam {
  if (ws.is_enterprise_install) return null;
  return {
    id: ws.team_id,
    domain: ws.team_domain,
    ...(ws.enterprise === undefined
      ? {}
      : { enterprise_id: ws.enterprise.id, enterprise_name: ws.enterprise.name }),
  };
}

/** `is_enterprise_install`, and `enterprise` on Grid. */
function enterpriseOf(ws: ResolvedWorkspace): {
  is_enterprise_install: boolean;
  enterprise?: { id: string; name: string };
} {
  return {
    is_enterprise_install: ws.is_enterprise_install,
    ...(ws.enterprise === undefined ? {} : { enterprise: ws.enterprise }),
  };
}

function userOf(
  ref: UserRef,
  teamId: string,
): { id: string; name: string; username: string; team_id: string } {
  const user = typeof ref === 'string' ? { id: ref } : ref;
  const name = user.name ?? user.username ?? user.id.replace(/^U_?/, '').toLowerCase();
  return { id: user.id, name, username: user.username ?? name, team_id: teamId };
}

function channelOf(ref: ChannelRef): { id: string; name: string } {
  const channel = typeof ref === 'string' ? { id: ref } : ref;
  return { id: channel.id, name: channel.name ?? (channel.id.startsWith('D') ? 'directmessage' : 'general') };
}

const MESSAGE_FIELDS = [
  'text',
  'user',
  'bot_id',
  'app_id',
  'team',
  'thread_ts',
  'blocks',
  'attachments',
  'metadata',
  'edited',
  'reply_count',
  'reply_users',
  'latest_reply',
] as const satisfies readonly (keyof MessageInput)[];

/** The message fields Slack sends (a stand-in `StoredMessage` also carries bookkeeping it never sends). */
function messageOf(message: MessageInput): NonNullable<BlockAction['message']> {
  const out: NonNullable<BlockAction['message']> = { type: 'message', ts: message.ts };
  for (const field of MESSAGE_FIELDS) {
    if (message[field] !== undefined) out[field] = message[field];
  }
  return out;
}

/**
 * A complete `ViewOutput` from the fields a test knows. Title, blocks and state are passed through
 * as given (hence the casts): the payload is test data, not something the stand-in validates.
 */
export function viewOutput(view: ViewInput, ws: PayloadWorkspace = {}): ViewOutput {
  const { team_id, api_app_id } = workspace(ws);
  return {
    id: view.id,
    callback_id: view.callback_id,
    team_id,
    app_id: api_app_id,
    bot_id: 'B_LOCAL',
    type: view.type ?? 'modal',
    title: (view.title ?? { type: 'plain_text', text: 'Modal', emoji: true }) as ViewOutput['title'],
    blocks: (view.blocks ?? []) as ViewOutput['blocks'],
    close: null,
    submit: null,
    state: (view.state ?? { values: {} }) as ViewOutput['state'],
    hash: view.hash ?? `${Math.floor(Date.now() / 1000)}.local`,
    private_metadata: view.private_metadata ?? '',
    root_view_id: view.root_view_id ?? view.id,
    previous_view_id: view.previous_view_id ?? null,
    clear_on_close: view.clear_on_close ?? false,
    notify_on_close: view.notify_on_close ?? false,
    ...(view.external_id === undefined ? {} : { external_id: view.external_id }),
    ...(view.app_installed_team_id === undefined
      ? {}
      : { app_installed_team_id: view.app_installed_team_id }),
  };
}

export type BlockActionsPayload = Omit<BlockAction<SandboxElementAction>, 'response_url'> & {
  /** Absent for actions inside modals, as in Slack. */
  response_url?: string;
};

/** A `block_actions` interaction: a click on a button (or another element) in a message, modal or App Home. */
export function blockActions(
  input: {
    user: UserRef;
    channel?: ChannelRef;
    message?: MessageInput;
    actions: ActionInput[];
    response_url?: string;
    trigger_id?: string;
    container?: Record<string, unknown>;
    view?: ViewInput;
    state?: { values: ViewStateValues };
  } & PayloadWorkspace,
): BlockActionsPayload {
  const ws = workspace(input);
  const channel = input.channel === undefined ? undefined : channelOf(input.channel);
  const view = input.view === undefined ? undefined : viewOutput(input.view, ws);
  const actionTs = nextTs();
  const container =
    input.container ??
    (view !== undefined
      ? { type: 'view', view_id: view.id }
      : {
          type: 'message',
          message_ts: input.message?.ts ?? '',
          channel_id: channel?.id ?? '',
          is_ephemeral: false,
        });
  return {
    type: 'block_actions',
    user: userOf(input.user, ws.user_team_id),
    api_app_id: ws.api_app_id,
    token: ws.token,
    container,
    trigger_id: input.trigger_id ?? newTriggerId(),
    team: teamOf(ws),
    ...enterpriseOf(ws),
    ...(channel === undefined ? {} : { channel }),
    ...(input.message === undefined ? {} : { message: messageOf(input.message) }),
    ...(view === undefined ? {} : { view }),
    ...(input.state === undefined ? {} : { state: input.state }),
    ...(input.response_url === undefined ? {} : { response_url: input.response_url }),
    actions: input.actions.map(
      ({ action_id, block_id, type, action_ts, ...rest }): SandboxElementAction => ({
        ...rest,
        action_id,
        block_id: block_id ?? 'actions',
        type: type ?? 'button',
        action_ts: action_ts ?? actionTs,
      }),
    ),
  };
}

/** A message shortcut (`message_action`): "More actions" on a message. */
export function messageShortcut(
  input: {
    callback_id: string;
    user: UserRef;
    channel: ChannelRef;
    message: MessageInput;
    trigger_id?: string;
    response_url: string;
  } & PayloadWorkspace,
): MessageShortcut {
  const ws = workspace(input);
  return {
    type: 'message_action',
    token: ws.token,
    action_ts: nextTs(),
    team: teamOf(ws),
    user: userOf(input.user, ws.user_team_id),
    channel: channelOf(input.channel),
    ...enterpriseOf(ws),
    callback_id: input.callback_id,
    trigger_id: input.trigger_id ?? newTriggerId(),
    message_ts: input.message.ts,
    message: messageOf(input.message),
    response_url: input.response_url,
  };
}

/** A global `shortcut`: picked from the composer's shortcuts menu; no channel, no message. */
export function globalShortcut(
  input: { callback_id: string; user: UserRef; trigger_id?: string } & PayloadWorkspace,
): GlobalShortcut {
  const ws = workspace(input);
  const user = userOf(input.user, ws.user_team_id);
  return {
    type: 'shortcut',
    token: ws.token,
    action_ts: nextTs(),
    team: teamOf(ws),
    user: { id: user.id, username: user.username, team_id: ws.user_team_id },
    ...enterpriseOf(ws),
    callback_id: input.callback_id,
    trigger_id: input.trigger_id ?? newTriggerId(),
  };
}

/** A `view_submission`: the user pressed the modal's submit button. */
export function viewSubmission(
  input: {
    user: UserRef;
    view: ViewInput;
    trigger_id?: string;
    response_urls?: { block_id: string; action_id: string; channel_id: string; response_url: string }[];
  } & PayloadWorkspace,
): ViewSubmitAction {
  const ws = workspace(input);
  return {
    type: 'view_submission',
    team: teamOf(ws),
    user: userOf(input.user, ws.user_team_id),
    api_app_id: ws.api_app_id,
    token: ws.token,
    trigger_id: input.trigger_id ?? newTriggerId(),
    view: viewOutput(input.view, ws),
    response_urls: input.response_urls ?? [],
    ...enterpriseOf(ws),
  };
}

/** A `block_suggestion`: an external select asks for options while the user types. */
export function blockSuggestion(
  input: {
    action_id: string;
    block_id: string;
    value: string;
    user: UserRef;
    view?: ViewInput;
    channel?: ChannelRef;
    container?: Record<string, unknown>;
  } & PayloadWorkspace,
): BlockSuggestion {
  const ws = workspace(input);
  const view = input.view === undefined ? undefined : viewOutput(input.view, ws);
  return {
    type: 'block_suggestion',
    user: userOf(input.user, ws.user_team_id),
    container:
      input.container ?? (view === undefined ? { type: 'message' } : { type: 'view', view_id: view.id }),
    api_app_id: ws.api_app_id,
    token: ws.token,
    action_id: input.action_id,
    block_id: input.block_id,
    value: input.value,
    team: teamOf(ws),
    ...enterpriseOf(ws),
    ...(input.channel === undefined ? {} : { channel: channelOf(input.channel) }),
    ...(view === undefined ? {} : { view }),
  };
}

/* ------------------------------------------------------------------ events */

/** A user's `message` event (in a channel, or a thread reply with `thread_ts`). */
export function messageEvent(input: {
  channel: string;
  user: string;
  text: string;
  ts?: string;
  thread_ts?: string;
  channel_type?: types.GenericMessageEvent['channel_type'];
  /** The author's workspace; default `T_LOCAL`. */
  team?: string;
  /** Slack Connect: the author's and the message's source workspace, when another organisation's. */
  user_team?: string;
  source_team?: string;
  blocks?: types.GenericMessageEvent['blocks'];
}): types.GenericMessageEvent & { user_team?: string; source_team?: string } {
  const ts = input.ts ?? nextTs();
  return {
    type: 'message',
    subtype: undefined,
    channel: input.channel,
    user: input.user,
    text: input.text,
    ts,
    event_ts: ts,
    team: input.team ?? 'T_LOCAL',
    client_msg_id: `00000000-0000-4000-8000-${ts.replace('.', '').padStart(12, '0').slice(-12)}`,
    channel_type: input.channel_type ?? (input.channel.startsWith('D') ? 'im' : 'channel'),
    ...(input.user_team === undefined ? {} : { user_team: input.user_team }),
    ...(input.source_team === undefined ? {} : { source_team: input.source_team }),
    ...(input.blocks === undefined ? {} : { blocks: input.blocks }),
    ...(input.thread_ts === undefined ? {} : { thread_ts: input.thread_ts, parent_user_id: input.user }),
  };
}

/** `app_home_opened`: the user opened the app's Home (or Messages) tab. */
export function appHomeOpened(input: {
  user: string;
  channel?: string;
  tab?: 'home' | 'messages';
}): types.AppHomeOpenedEvent {
  return {
    type: 'app_home_opened',
    user: input.user,
    channel: input.channel ?? `D_${input.user}`,
    tab: input.tab ?? 'home',
    event_ts: nextTs(),
  };
}

/** `link_shared`: a message contains URLs of a domain the app unfurls. */
export function linkShared(input: {
  channel: string;
  user: string;
  message_ts: string;
  thread_ts?: string;
  links: (string | { domain: string; url: string })[];
  unfurl_id?: string;
  source?: 'conversations_history' | 'composer';
}): types.LinkSharedEvent {
  return {
    type: 'link_shared',
    channel: input.channel,
    is_bot_user_member: true,
    user: input.user,
    message_ts: input.message_ts,
    ...(input.thread_ts === undefined ? {} : { thread_ts: input.thread_ts }),
    unfurl_id: input.unfurl_id ?? `C_UNFURL_${input.message_ts.replace('.', '')}`,
    source: input.source ?? 'conversations_history',
    links: input.links.map((link) =>
      typeof link === 'string' ? { domain: new URL(link).hostname, url: link } : link,
    ),
    event_ts: nextTs(),
  };
}

/** `app_uninstalled`: the app was removed from the workspace. */
export function appUninstalled(): types.AppUninstalledEvent {
  return { type: 'app_uninstalled' };
}

/** `tokens_revoked`: user (`oauth`) or bot tokens were revoked; the lists hold user ids. */
export function tokensRevoked(tokens: { oauth?: string[]; bot?: string[] }): types.TokensRevokedEvent {
  return { type: 'tokens_revoked', tokens };
}

export type EventAuthorization = NonNullable<EnvelopedEvent['authorizations']>[number];

export interface EventEnvelopeOptions extends PayloadWorkspace {
  event_id?: string;
  /** Seconds since the epoch; default now. */
  event_time?: number;
  /**
   * The installation the event is for. Default: the bot (`botUserId`) of `team_id`, or of the
   * enterprise with `team_id: null` for an org-wide install (`is_enterprise_install`).
   */
  authorizations?: EventAuthorization[];
  /** Bot user the default authorization names; default `U_BOT`. */
  botUserId?: string;
  is_ext_shared_channel?: boolean;
}

let eventCounter = 0;

/** The Events API `event_callback` envelope around an event. */
export function eventEnvelope<E extends { type: string }>(
  event: E,
  options: EventEnvelopeOptions = {},
): EnvelopedEvent<E> {
  const ws = workspace(options);
  eventCounter += 1;
  const enterpriseId = ws.enterprise?.id ?? null;
  return {
    token: ws.token,
    team_id: ws.team_id,
    ...(enterpriseId === null ? {} : { enterprise_id: enterpriseId }),
    context_team_id: ws.team_id,
    ...(enterpriseId === null ? {} : { context_enterprise_id: enterpriseId }),
    api_app_id: ws.api_app_id,
    event,
    type: 'event_callback',
    event_id: options.event_id ?? `Ev${String(eventCounter).padStart(9, '0')}LOCAL`,
    event_time: options.event_time ?? Math.floor(Date.now() / 1000),
    authorizations: options.authorizations ?? [
      {
        enterprise_id: enterpriseId,
        team_id: ws.is_enterprise_install ? null : ws.team_id,
        user_id: options.botUserId ?? 'U_BOT',
        is_bot: true,
        is_enterprise_install: ws.is_enterprise_install,
      },
    ],
    is_ext_shared_channel: options.is_ext_shared_channel ?? false,
  };
}

export interface UrlVerification {
  token: string;
  challenge: string;
  type: 'url_verification';
}

/** The handshake Slack sends when the Request URL is saved. */
export function urlVerification(
  challenge = randomBytes(24).toString('base64url'),
  token = LOCAL_VERIFICATION_TOKEN,
): UrlVerification {
  return { token, challenge, type: 'url_verification' };
}

/**
 * `function_executed`, as Slack sends it when a workflow reaches one of the app's custom steps:
 * the step's definition, its inputs, the execution id and the execution's own token.
 */
export function functionExecuted(input: {
  callbackId: string;
  title: string;
  inputs: Record<string, unknown>;
  executionId?: string;
  appId?: string;
}): types.FunctionExecutedEvent {
  const executionId = input.executionId ?? `Fx${randomBytes(5).toString('hex').toUpperCase()}`;
  return {
    type: 'function_executed',
    function: {
      id: `Fn${randomBytes(5).toString('hex').toUpperCase()}`,
      callback_id: input.callbackId,
      title: input.title,
      type: 'app',
      input_parameters: [],
      output_parameters: [],
      app_id: input.appId ?? 'A_LOCAL',
      date_created: 1_700_000_000,
      date_updated: 1_700_000_000,
      date_deleted: 0,
    },
    inputs: input.inputs as types.FunctionExecutedEvent['inputs'],
    function_execution_id: executionId,
    workflow_execution_id: `Wx${randomBytes(5).toString('hex').toUpperCase()}`,
    event_ts: nextTs(),
    bot_access_token: `xwfp-local-${executionId}`,
  };
}
