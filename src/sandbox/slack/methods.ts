import { authHandlers } from './auth.ts';
import { type ApiResponse, fail, type Handler, type MethodContext } from './handler.ts';
import { nextHash, nextId } from './ids.ts';
import { CONNECT_PARTNER } from './organisations.ts';
import { arrayArg, recordArg, stringArg } from './request.ts';
import type { SlackChannel, SlackViewObject, StoredMessage, StoredView } from './types.ts';
import type { Installation, SlackWorld } from './world.ts';
import { compareTs, workspaceOf } from './world.ts';

export { OTHER_INSTALLATION, TOKEN_LIFETIME_SECONDS } from './auth.ts';
export type { ApiResponse, MethodContext } from './handler.ts';

const PERMALINK_ORIGIN = 'https://slack.example';

/** A stored message as Slack returns it (no stand-in bookkeeping). */
function messageObject(message: StoredMessage): Record<string, unknown> {
  const { channel: _channel, ephemeralFor: _ephemeralFor, ...rest } = message;
  return rest;
}

function channelObject(channel: SlackChannel, teamId: string): Record<string, unknown> {
  const isIm = channel.id.startsWith('D');
  const isMpim = channel.id.startsWith('G_');
  const shared = channel.is_ext_shared === true;
  return {
    id: channel.id,
    name: channel.name,
    name_normalized: channel.name,
    is_channel: !isIm && !isMpim && !channel.is_private,
    is_group: channel.is_private && !isMpim,
    is_im: isIm,
    is_mpim: isMpim,
    is_private: channel.is_private || isIm || isMpim,
    is_archived: channel.is_archived === true,
    is_general: false,
    is_shared: shared,
    is_ext_shared: shared,
    is_org_shared: false,
    ...(shared
      ? {
          shared_team_ids: channel.shared_team_ids ?? [teamId, CONNECT_PARTNER.teamId],
          conversation_host_id: channel.shared_team_ids?.[0] ?? teamId,
        }
      : {}),
    is_member: channel.is_member,
    created: 1_700_000_000,
    creator: 'U_ADA',
    context_team_id: teamId,
    ...(isIm ? { user: channel.id.replace(/^D_?/, '') } : {}),
  };
}

/** Why the bot cannot post in a channel (deleted, archived, not a member), as Slack answers it. */
function cannotPost(channel: SlackChannel): string | undefined {
  if (channel.is_deleted === true) return 'channel_not_found';
  if (channel.is_archived === true) return 'is_archived';
  if (!channel.is_member && !channel.id.startsWith('D')) return 'not_in_channel';
  return undefined;
}

/** A Slack user id (`U…`/`W…`) given where a channel is expected means the DM with that user. */
export function resolveChannel(world: SlackWorld, channel: string): string {
  return /^[UW]/.test(channel) && world.user(channel) !== undefined ? `D_${channel}` : channel;
}

function messageContent(args: Record<string, unknown>): Partial<StoredMessage> {
  const content: Partial<StoredMessage> = {};
  const text = stringArg(args, 'text');
  const blocks = arrayArg(args, 'blocks');
  const attachments = arrayArg(args, 'attachments');
  if (text !== undefined) content.text = text;
  if (blocks !== undefined) content.blocks = blocks;
  if (attachments !== undefined) content.attachments = attachments;
  if (args.metadata !== undefined) content.metadata = args.metadata;
  return content;
}

/** What the bot posts: the content of `args`; undefined when it has no text, blocks or attachments. */
function postedContent(args: Record<string, unknown>): Partial<StoredMessage> | undefined {
  const content = messageContent(args);
  return content.text === undefined && content.blocks === undefined && content.attachments === undefined
    ? undefined
    : content;
}

/** A message by the bot in `channel`, in the thread `thread_ts` of `args` names, if any. */
function botMessage(
  installation: Installation,
  channel: string,
  content: Partial<StoredMessage>,
  args: Record<string, unknown>,
): Omit<StoredMessage, 'type' | 'ts'> {
  const threadTs = stringArg(args, 'thread_ts');
  return {
    channel,
    user: installation.botUserId,
    bot_id: installation.botId,
    app_id: installation.appId,
    team: workspaceOf(installation, args),
    text: '',
    ...content,
    ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
  };
}

/** The bot's own message that `channel` and `ts` of `args` name, or the error Slack answers. */
function ownMessage(
  world: SlackWorld,
  args: Record<string, unknown>,
  notOwn: string,
): StoredMessage | ApiResponse {
  const channel = stringArg(args, 'channel');
  const ts = stringArg(args, 'ts');
  if (channel === undefined) return fail('channel_not_found');
  if (ts === undefined) return fail('message_not_found');
  const message = world.findMessage(resolveChannel(world, channel), ts);
  if (message === undefined) return fail('message_not_found');
  if (message.bot_id === undefined) return fail(notOwn);
  return message;
}

function permalink(channel: string, message: StoredMessage | undefined, ts: string): string {
  const base = `${PERMALINK_ORIGIN}/archives/${channel}/p${ts.replace('.', '')}`;
  if (message?.thread_ts !== undefined && message.thread_ts !== message.ts) {
    return `${base}?thread_ts=${message.thread_ts}&cid=${channel}`;
  }
  return base;
}

function buildView(
  raw: Record<string, unknown>,
  installation: Installation,
  teamId: string,
  id: string,
  rootViewId: string | null,
): SlackViewObject {
  const str = (key: string): string => (typeof raw[key] === 'string' ? (raw[key] as string) : '');
  return {
    id,
    team_id: teamId,
    type: typeof raw.type === 'string' ? raw.type : 'modal',
    callback_id: str('callback_id'),
    external_id: str('external_id'),
    private_metadata: str('private_metadata'),
    title: raw.title ?? null,
    submit: raw.submit ?? null,
    close: raw.close ?? null,
    blocks: Array.isArray(raw.blocks) ? raw.blocks : [],
    state: { values: {} },
    hash: nextHash(),
    clear_on_close: raw.clear_on_close === true,
    notify_on_close: raw.notify_on_close === true,
    root_view_id: rootViewId,
    previous_view_id: null,
    app_id: installation.appId,
    app_installed_team_id: teamId,
    bot_id: installation.botId,
  };
}

function hasExternalId(world: SlackWorld, externalId: string): boolean {
  if (externalId === '') return false;
  for (const stored of world.views.byId.values()) {
    if (stored.view.external_id === externalId) return true;
  }
  return false;
}

function openView(context: MethodContext, via: 'views.open' | 'views.push'): ApiResponse {
  const { world, args, installation } = context;
  const triggerId = stringArg(args, 'trigger_id');
  if (triggerId === undefined) return fail('invalid_arguments');
  if (triggerId === 'expired') return fail('expired_trigger_id');
  const raw = recordArg(args, 'view');
  if (raw === undefined) return fail('invalid_arguments');
  if (typeof raw.external_id === 'string' && hasExternalId(world, raw.external_id)) {
    return fail('duplicate_external_id');
  }
  const id = nextId('V');
  const view = buildView(raw, installation, workspaceOf(installation, args), id, id);
  world.views.byId.set(id, { view, via, trigger_id: triggerId, updates: 0 });
  return { ok: true, view };
}

function replaceView(stored: StoredView, raw: Record<string, unknown>, installation: Installation): void {
  const next = buildView(raw, installation, stored.view.team_id, stored.view.id, stored.view.root_view_id);
  if (next.external_id === '') next.external_id = stored.view.external_id;
  stored.view = next;
  stored.updates += 1;
}

const handlers: Record<string, Handler> = {
  ...authHandlers,
  'apps.connections.open': ({ world }) =>
    world.socketModeUrl ? { ok: true, url: world.socketModeUrl } : fail('not_allowed_token_type'),

  'chat.postMessage': ({ world, args, installation }) => {
    const requested = stringArg(args, 'channel');
    if (requested === undefined) return fail('channel_not_found');
    const content = postedContent(args);
    if (content === undefined) return fail('no_text');
    const channel = resolveChannel(world, requested);
    const unable = cannotPost(world.channel(channel));
    if (unable !== undefined) return fail(unable);
    const stored = world.addMessage(botMessage(installation, channel, content, args));
    return { ok: true, channel, ts: stored.ts, message: messageObject(stored) };
  },

  'chat.postEphemeral': ({ world, args, installation }) => {
    const requested = stringArg(args, 'channel');
    if (requested === undefined) return fail('channel_not_found');
    const user = stringArg(args, 'user');
    if (user === undefined) return fail('user_not_in_channel');
    const content = postedContent(args);
    if (content === undefined) return fail('no_text');
    const channel = resolveChannel(world, requested);
    const stored = world.addMessage({
      ...botMessage(installation, channel, content, args),
      ephemeralFor: user,
    });
    return { ok: true, message_ts: stored.ts };
  },

  'chat.update': ({ world, args, installation }) => {
    const message = ownMessage(world, args, 'cant_update_message');
    if ('ok' in message) return message;
    Object.assign(message, messageContent(args));
    message.edited = { user: installation.botUserId, ts: String(Math.floor(Date.now() / 1000)) };
    return {
      ok: true,
      channel: message.channel,
      ts: message.ts,
      text: message.text,
      message: messageObject(message),
    };
  },

  'chat.delete': ({ world, args }) => {
    const message = ownMessage(world, args, 'cant_delete_message');
    if ('ok' in message) return message;
    world.removeMessage(message);
    return { ok: true, channel: message.channel, ts: message.ts };
  },

  'chat.getPermalink': ({ world, args }) => {
    const requested = stringArg(args, 'channel');
    const ts = stringArg(args, 'message_ts');
    if (requested === undefined) return fail('channel_not_found');
    if (ts === undefined) return fail('message_not_found');
    const channel = resolveChannel(world, requested);
    return { ok: true, channel, permalink: permalink(channel, world.findMessage(channel, ts), ts) };
  },

  'chat.unfurl': ({ world, args }) => {
    const unfurls = recordArg(args, 'unfurls');
    if (unfurls === undefined) return fail('invalid_arguments');
    const channel = stringArg(args, 'channel');
    const ts = stringArg(args, 'ts');
    const byUnfurlId = stringArg(args, 'unfurl_id') !== undefined && stringArg(args, 'source') !== undefined;
    if ((channel === undefined || ts === undefined) && !byUnfurlId) return fail('invalid_arguments');
    if (channel !== undefined && ts !== undefined) {
      const message = world.findMessage(channel, ts);
      if (message !== undefined) message.unfurls = { ...message.unfurls, ...unfurls };
    }
    return { ok: true };
  },

  'users.info': ({ world, args }) => {
    const id = stringArg(args, 'user');
    const user = id === undefined ? undefined : world.user(id);
    return user === undefined ? fail('user_not_found') : { ok: true, user };
  },

  'users.lookupByEmail': ({ world, args }) => {
    const email = stringArg(args, 'email');
    const user = email === undefined ? undefined : world.userByEmail(email);
    return user === undefined ? fail('users_not_found') : { ok: true, user };
  },

  'conversations.info': ({ world, args, installation }) => {
    const id = stringArg(args, 'channel');
    if (id === undefined) return fail('channel_not_found');
    return {
      ok: true,
      channel: channelObject(world.channel(resolveChannel(world, id)), workspaceOf(installation, args)),
    };
  },

  'conversations.join': ({ world, args, installation }) => {
    const id = stringArg(args, 'channel');
    if (id === undefined) return fail('channel_not_found');
    const channel = world.channel(id);
    if (channel.is_deleted === true) return fail('channel_not_found');
    if (channel.is_archived === true) return fail('is_archived');
    if (id.startsWith('D') || id.startsWith('G_') || channel.is_private) {
      return fail('method_not_supported_for_channel_type');
    }
    const already = channel.is_member;
    channel.is_member = true;
    const response: ApiResponse = {
      ok: true,
      channel: channelObject(channel, workspaceOf(installation, args)),
    };
    if (already) {
      response.warning = 'already_in_channel';
      response.response_metadata = { warnings: ['already_in_channel'] };
    }
    return response;
  },

  'conversations.open': ({ world, args, installation }) => {
    const channelArg = stringArg(args, 'channel');
    const users = (stringArg(args, 'users') ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter((u) => u.length > 0);
    let id: string;
    if (channelArg !== undefined) {
      id = channelArg;
    } else if (users.length === 0) {
      return fail('users_list_not_supplied');
    } else {
      const unknown = users.find((u) => world.user(u) === undefined);
      if (unknown !== undefined) return fail('user_not_found');
      id = users.length === 1 ? `D_${users[0]}` : `G_${[...users].sort().join('_')}`;
    }
    const channel = world.channel(id);
    const already = world.openDm(id);
    const returnIm = stringArg(args, 'return_im') === 'true';
    return {
      ok: true,
      ...(already ? { no_op: true, already_open: true } : {}),
      channel: returnIm ? channelObject(channel, workspaceOf(installation, args)) : { id },
    };
  },

  'conversations.replies': ({ world, args }) => {
    const requested = stringArg(args, 'channel');
    const ts = stringArg(args, 'ts');
    if (requested === undefined) return fail('channel_not_found');
    if (ts === undefined) return fail('thread_not_found');
    const channel = resolveChannel(world, requested);
    const parent = world.findMessage(channel, ts);
    if (parent === undefined) return fail('thread_not_found');
    const all = [parent, ...world.replies(channel, ts)];
    const cursor = stringArg(args, 'cursor');
    const from = cursor === undefined ? undefined : Buffer.from(cursor, 'base64').toString('utf8').slice(8);
    const remaining = from === undefined ? all : all.filter((m) => compareTs(m.ts, from) >= 0);
    const limit = Math.max(1, Number(stringArg(args, 'limit') ?? '1000') || 1000);
    const page = remaining.slice(0, limit);
    const next = remaining[limit];
    return {
      ok: true,
      messages: page.map(messageObject),
      has_more: next !== undefined,
      response_metadata: {
        next_cursor: next === undefined ? '' : Buffer.from(`next_ts:${next.ts}`).toString('base64'),
      },
    };
  },

  // Workflow Builder custom steps end here; the stand-in records them (RecordedCall) for the console.
  'functions.completeSuccess': ({ args }) => {
    if (stringArg(args, 'function_execution_id') === undefined) return fail('invalid_arguments');
    return recordArg(args, 'outputs') === undefined ? fail('invalid_arguments') : { ok: true };
  },

  'functions.completeError': ({ args }) => {
    if (stringArg(args, 'function_execution_id') === undefined) return fail('invalid_arguments');
    return stringArg(args, 'error') === undefined ? fail('invalid_arguments') : { ok: true };
  },

  'views.open': (context) => openView(context, 'views.open'),

  'views.push': (context) => openView(context, 'views.push'),

  'views.update': ({ world, args, installation }) => {
    const raw = recordArg(args, 'view');
    if (raw === undefined) return fail('invalid_arguments');
    const viewId = stringArg(args, 'view_id');
    const externalId = stringArg(args, 'external_id');
    let stored: StoredView | undefined;
    if (viewId !== undefined) stored = world.views.byId.get(viewId);
    else if (externalId !== undefined) {
      stored = [...world.views.byId.values()].find((v) => v.view.external_id === externalId);
    } else return fail('invalid_arguments');
    if (stored === undefined) return fail('not_found');
    const hash = stringArg(args, 'hash');
    if (hash !== undefined && hash !== stored.view.hash) return fail('hash_conflict');
    replaceView(stored, raw, installation);
    return { ok: true, view: stored.view };
  },

  'views.publish': ({ world, args, installation }) => {
    const userId = stringArg(args, 'user_id');
    const raw = recordArg(args, 'view');
    if (userId === undefined || raw === undefined) return fail('invalid_arguments');
    const existing = world.views.home.get(userId);
    const hash = stringArg(args, 'hash');
    if (existing !== undefined) {
      if (hash !== undefined && hash !== existing.view.hash) return fail('hash_conflict');
      replaceView(existing, raw, installation);
      return { ok: true, view: existing.view };
    }
    const id = nextId('V');
    const stored: StoredView = {
      view: buildView(raw, installation, workspaceOf(installation, args), id, null),
      via: 'views.publish',
      user_id: userId,
      updates: 0,
    };
    world.views.byId.set(id, stored);
    world.views.home.set(userId, stored);
    return { ok: true, view: stored.view };
  },
};

/**
 * An org-wide token names the workspace it acts in with `team_id`; one the org admin has not added
 * the app to is refused (Slack's common error `team_access_not_granted`).
 */
function notGranted({ world, args, installation }: MethodContext): boolean {
  const teamId = stringArg(args, 'team_id');
  if (!installation.isEnterpriseInstall || teamId === undefined) return false;
  return !world.workspacesOf(installation).includes(teamId);
}

/** Answers one Web API call, changing the world as Slack would. */
export function handleMethod(method: string, context: MethodContext): ApiResponse {
  const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
  if (handler === undefined) return fail('unknown_method', { req_method: method });
  if (notGranted(context)) return fail('team_access_not_granted');
  return handler(context);
}

export const SUPPORTED_METHODS: readonly string[] = Object.keys(handlers);
