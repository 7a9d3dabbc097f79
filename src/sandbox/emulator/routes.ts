/**
 * The routes of spec §4, one handler each. Handlers get an authenticated organization and a
 * parsed JSON body, validate, apply the write to state through the same methods the act-as
 * helpers use (authored by the organization's app), and answer the spec's status and shape.
 */
import {
  CHANNEL_SORT_KEYS,
  MEMBER_ROLES,
  MEMBER_SORT_KEYS,
  MESSAGE_SORT_KEYS,
  type MemberRole,
  POST_SORT_KEYS,
} from '../../collab/schemas.ts';
import { type QueryNames, ROLE_SEPARATOR } from '../../collab/wire.ts';
import {
  CreateCommentBody,
  CreateMessageBody,
  CreatePostBody,
  parseBody,
  parseThreadBody,
  ResolvePostBody,
} from './bodies.ts';
import { type Ordering, paginate, type SortValue } from './cursor.ts';
import { forbidden, notFound, unprocessable } from './http-error.ts';
import { parseListQuery } from './list-query.ts';
import {
  presentChannel,
  presentComment,
  presentMember,
  presentMessage,
  presentPost,
  presentThread,
} from './present.ts';
import type { ListEnvelope } from './records.ts';
import type { RouteDefinition } from './router.ts';
import type { OrgState } from './state.ts';

export interface ApiContext {
  org: OrgState;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body; `{}` when the request had none. */
  body: unknown;
  names: QueryNames;
}

export interface ApiResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type ApiHandler = (ctx: ApiContext) => ApiResult;

/**
 * Default orders when none is asked (SERVICE-FACTS.md): posts newest published first, messages
 * newest first, members and channels oldest first. The tie-break on id is always added.
 */
export const DEFAULT_ORDERS = {
  posts: { sortKey: 'published_at', direction: 'desc' },
  messages: { sortKey: 'created_at', direction: 'desc' },
  members: { sortKey: 'created_at', direction: 'asc' },
  channels: { sortKey: 'created_at', direction: 'asc' },
} as const;

/** The default sort keys (kept for readers of DEFAULT_ORDERS by key). */
export const DEFAULT_SORT_KEYS = {
  posts: DEFAULT_ORDERS.posts.sortKey,
  messages: DEFAULT_ORDERS.messages.sortKey,
  members: DEFAULT_ORDERS.members.sortKey,
  channels: DEFAULT_ORDERS.channels.sortKey,
} as const;

const ok = (body: unknown): ApiResult => ({ status: 200, body });
const created = (body: unknown): ApiResult => ({ status: 201, body });

function param(ctx: ApiContext, name: string): string {
  return ctx.params[name] ?? '';
}

const time = (iso: string): number => Date.parse(iso);

interface ListSpec<T, K extends string, W> {
  items: readonly T[];
  sortKeys: readonly K[];
  defaults: { sortKey: K; direction: 'asc' | 'desc' };
  value: (item: T, key: K) => SortValue;
  id: (item: T) => string;
  present: (item: T) => W;
}

function listOf<T, K extends string, W>(ctx: ApiContext, spec: ListSpec<T, K, W>): ApiResult {
  const query = parseListQuery(ctx.query, ctx.names, spec.sortKeys, spec.defaults);
  const ordering: Ordering<T> = {
    direction: query.direction,
    value: (item) => spec.value(item, query.sortKey),
    id: spec.id,
  };
  const page = paginate(spec.items, ordering, query);
  const envelope: ListEnvelope<W> = { ...page, data: page.data.map(spec.present) };
  return ok(envelope);
}

// ---- posts ----

const createPost: ApiHandler = (ctx) => {
  const post = ctx.org.createPost(ctx.org.app, parseBody(CreatePostBody, ctx.body));
  return created(presentPost(ctx.org, post));
};

/** Posts of private channels the key does not see are left out; filtering by one is a 403. */
const listPosts: ApiHandler = (ctx) => {
  const channelId = ctx.query.get(ctx.names.channel) || null;
  if (channelId !== null) {
    const channel = ctx.org.channels.get(channelId);
    if (!channel) throw notFound(`Unknown channel: ${channelId}`);
    if (!ctx.org.visibleChannel(channel)) throw forbidden();
  }
  const posts = [...ctx.org.posts.values()].filter(
    (post) =>
      (channelId === null || post.channel_id === channelId) &&
      ctx.org.visibleChannel(ctx.org.channels.get(post.channel_id)),
  );
  return listOf(ctx, {
    items: posts,
    sortKeys: POST_SORT_KEYS,
    defaults: DEFAULT_ORDERS.posts,
    // `published_at` is the post's creation time.
    value: (post, key) => time(key === 'last_activity_at' ? post.last_activity_at : post.created_at),
    id: (post) => post.id,
    present: (post) => presentPost(ctx.org, post),
  });
};

const getPost: ApiHandler = (ctx) => ok(presentPost(ctx.org, ctx.org.postOr404(param(ctx, 'id'))));

/** 201 for a first resolve and for a re-resolve alike (see OrgState.resolvePost). */
const resolvePost: ApiHandler = (ctx) => {
  const body = parseBody(ResolvePostBody, ctx.body);
  return created(presentPost(ctx.org, ctx.org.resolvePost(ctx.org.app, param(ctx, 'post_id'), body)));
};

const unresolvePost: ApiHandler = (ctx) =>
  ok(presentPost(ctx.org, ctx.org.unresolvePost(param(ctx, 'post_id'))));

/** Status of create comment is "not shown" in the spec; the service answers 201. */
const createComment: ApiHandler = (ctx) => {
  const body = parseBody(CreateCommentBody, ctx.body);
  return created(presentComment(ctx.org, ctx.org.createComment(ctx.org.app, param(ctx, 'post_id'), body)));
};

// ---- threads and messages ----

const createThread: ApiHandler = (ctx) => {
  const body = parseThreadBody(ctx.body);
  return created(presentThread(ctx.org, ctx.org.createThread(ctx.org.app, body)));
};

/**
 * Status of create message is "not shown" in the spec; the service answers 201. The app (the
 * organization's key) may write in any thread of the organization.
 */
const createMessage: ApiHandler = (ctx) => {
  const body = parseBody(CreateMessageBody, ctx.body);
  return created(presentMessage(ctx.org.createMessage(ctx.org.app, param(ctx, 'thread_id'), body)));
};

const listMessages: ApiHandler = (ctx) => {
  const thread = ctx.org.threadOr404(param(ctx, 'thread_id'));
  const messages = [...ctx.org.messages.values()].filter((message) => message.thread_id === thread.id);
  return listOf(ctx, {
    items: messages,
    sortKeys: MESSAGE_SORT_KEYS,
    defaults: DEFAULT_ORDERS.messages,
    value: (message) => time(message.created_at),
    id: (message) => message.id,
    present: presentMessage,
  });
};

// ---- members and channels ----

function parseRoles(ctx: ApiContext): Set<MemberRole> | undefined {
  const raw = ctx.query.get(ctx.names.roles);
  if (raw === null) return undefined;
  const roles = new Set<MemberRole>();
  for (const part of raw.split(ROLE_SEPARATOR)) {
    const role = part.trim();
    if (role === '') continue;
    const known = MEMBER_ROLES.find((candidate) => candidate === role);
    if (known === undefined) {
      throw unprocessable(`Roles must be among ${MEMBER_ROLES.join(', ')}`);
    }
    roles.add(known);
  }
  return roles.size === 0 ? undefined : roles;
}

/** Members: search is a case-insensitive substring of username, name or email; deactivated members are not listed. */
const listMembers: ApiHandler = (ctx) => {
  const search = ctx.query.get(ctx.names.search)?.toLowerCase() || undefined;
  const roles = parseRoles(ctx);
  const members = [...ctx.org.members.values()].filter(
    (member) =>
      !member.is_deactivated &&
      (roles === undefined || roles.has(member.role)) &&
      (search === undefined ||
        member.username.toLowerCase().includes(search) ||
        member.user.display_name.toLowerCase().includes(search) ||
        member.user.email.toLowerCase().includes(search)),
  );
  return listOf(ctx, {
    items: members,
    sortKeys: MEMBER_SORT_KEYS,
    defaults: DEFAULT_ORDERS.members,
    value: (member, key) => time(key === 'last_seen_at' ? member.last_seen_at : member.created_at),
    id: (member) => member.id,
    present: presentMember,
  });
};

/**
 * Channels: the name filter is a case-insensitive substring; archived channels and private ones
 * the key does not see are not listed; a channel's last activity is its latest post's.
 */
const listChannels: ApiHandler = (ctx) => {
  const name = ctx.query.get(ctx.names.name)?.toLowerCase() || undefined;
  const channels = [...ctx.org.channels.values()].filter(
    (channel) =>
      !channel.archived &&
      ctx.org.visibleChannel(channel) &&
      (name === undefined || channel.name.toLowerCase().includes(name)),
  );
  return listOf(ctx, {
    items: channels,
    sortKeys: CHANNEL_SORT_KEYS,
    defaults: DEFAULT_ORDERS.channels,
    value: (channel, key) => {
      if (key === 'name') return channel.name.toLowerCase();
      return time(key === 'last_activity_at' ? ctx.org.channelLastActivity(channel.id) : channel.created_at);
    },
    id: (channel) => channel.id,
    present: presentChannel,
  });
};

export const API_ROUTES: readonly RouteDefinition<ApiHandler>[] = [
  { method: 'POST', template: '/v2/posts', handler: createPost },
  { method: 'GET', template: '/v2/posts', handler: listPosts },
  { method: 'GET', template: '/v2/posts/{id}', handler: getPost },
  { method: 'POST', template: '/v2/posts/{post_id}/resolution', handler: resolvePost },
  { method: 'DELETE', template: '/v2/posts/{post_id}/resolution', handler: unresolvePost },
  { method: 'POST', template: '/v2/posts/{post_id}/comments', handler: createComment },
  { method: 'POST', template: '/v2/threads', handler: createThread },
  { method: 'POST', template: '/v2/threads/{thread_id}/messages', handler: createMessage },
  { method: 'GET', template: '/v2/threads/{thread_id}/messages', handler: listMessages },
  { method: 'GET', template: '/v2/members', handler: listMembers },
  { method: 'GET', template: '/v2/channels', handler: listChannels },
];
