/**
 * Client of the Team Collaboration Service REST API v2: the 11 operations of the spec and four
 * page walks. Knows nothing of Slack; imports nothing of the project outside src/collab/.
 *
 * - Every failure is a CollabError with a kind (errors.ts); the client never retries.
 * - Bad input or options throw a CollabError `permanent`/`badRequest` before any request.
 * - Responses are validated with the schemas of schemas.ts (unknown fields pass through).
 */
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { BudgetScope, RequestBudget } from './budget.ts';
import type { CollabErrorKind } from './errors.ts';
import { createHttp, type HttpMethod, type Timeouts } from './http.ts';
import { compact, pathParam, validate } from './inputs.ts';
import type { OutboundGuard } from './outbound.ts';
import { walkPages } from './pages.ts';
import {
  type AnyListQuery,
  ListChannelsQuery,
  ListMembersQuery,
  ListMessagesQuery,
  ListPostsQuery,
  toQueryParams,
} from './queries.ts';
import {
  type Channel,
  ChannelPage,
  Comment,
  CreateCommentInput,
  CreateMessageInput,
  CreatePostInput,
  CreateThreadInput,
  type Member,
  MemberPage,
  Message,
  MessagePage,
  type Page,
  Post,
  PostPage,
  ResolvePostInput,
  Thread,
} from './schemas.ts';
import { type QueryNames, queryNames } from './wire.ts';

export type { ListChannelsQuery, ListMembersQuery, ListMessagesQuery, ListPostsQuery } from './queries.ts';

export interface CollabClientOptions {
  /** The service's `{base_url}`; endpoints are baseUrl + '/v2/...'. A trailing slash is tolerated. */
  baseUrl: string;
  apiKey: string;
  /** Override of the wire table of query parameter names (wire.ts). */
  queryNames?: Partial<QueryNames>;
  /**
   * Defaults 5000/10000/10000 ms. `connectMs` applies to the client's own pool only; with a
   * shared `dispatcher`, its own connect timeout applies. undici's timers are ~1 s accurate.
   */
  timeouts?: Timeouts;
  /** Keep-alive pool size of the client's own pool, default 16. */
  connections?: number;
  /** An undici dispatcher to share a pool; the client then does not close it. */
  dispatcher?: Dispatcher;
  /** Checks the address of every connection (URLs entered by workspace admins); see outbound.ts. */
  guard?: OutboundGuard;
  /** The request budget of the service host (shared by every process); none: unlimited. */
  budget?: RequestBudget;
  /** Metrics hook, called once per HTTP exchange; carries no key. Its errors are ignored. */
  onResponse?: (event: {
    operation: string;
    method: string;
    status: number | undefined;
    durationMs: number;
    error?: CollabErrorKind;
  }) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** Options of a page walk: it follows `next_cursor` forward, so `before` has no place there. */
export type WalkQuery<Q> = Omit<Q, 'before'>;

export interface CollabClient {
  createPost(input: CreatePostInput, opts?: CallOptions): Promise<Post>;
  listPosts(query?: ListPostsQuery, opts?: CallOptions): Promise<Page<Post>>;
  getPost(id: string, opts?: CallOptions): Promise<Post>;
  resolvePost(postId: string, input?: ResolvePostInput, opts?: CallOptions): Promise<Post>;
  unresolvePost(postId: string, opts?: CallOptions): Promise<Post>;
  createComment(postId: string, input: CreateCommentInput, opts?: CallOptions): Promise<Comment>;
  createThread(input: CreateThreadInput, opts?: CallOptions): Promise<Thread>;
  createMessage(threadId: string, input: CreateMessageInput, opts?: CallOptions): Promise<Message>;
  listMessages(threadId: string, query?: ListMessagesQuery, opts?: CallOptions): Promise<Page<Message>>;
  listMembers(query?: ListMembersQuery, opts?: CallOptions): Promise<Page<Member>>;
  listChannels(query?: ListChannelsQuery, opts?: CallOptions): Promise<Page<Channel>>;
  /**
   * Async iterators over all pages following `next_cursor` (from `after` when given), one page
   * in memory at a time; they stop on a missing cursor, a repeated cursor or a repeated page.
   * Options are validated when iteration starts.
   */
  allPosts(query?: WalkQuery<ListPostsQuery>, opts?: CallOptions): AsyncIterable<Post>;
  allMessages(
    threadId: string,
    query?: WalkQuery<ListMessagesQuery>,
    opts?: CallOptions,
  ): AsyncIterable<Message>;
  allMembers(query?: WalkQuery<ListMembersQuery>, opts?: CallOptions): AsyncIterable<Member>;
  allChannels(query?: WalkQuery<ListChannelsQuery>, opts?: CallOptions): AsyncIterable<Channel>;
  /**
   * The same client with every request counted in `scope`'s lane of the request budget, for its
   * workspace (a job's: budget.ts). Unscoped requests are a person's.
   */
  scoped(scope: BudgetScope): CollabClient;
  /** Closes the client's own pool (not a shared dispatcher). */
  close(): Promise<void>;
}

/** Throws a TypeError for a malformed configuration (base url, query names); never quotes the key. */
export function createCollabClient(options: CollabClientOptions): CollabClient {
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
    throw new TypeError('collab client: apiKey is required');
  }
  const names = wireNames(options.queryNames);
  const http = createHttp(options);

  /** The client of one budget scope: a few closures over the one pool, made per job. */
  function clientOf(scope: BudgetScope | undefined): CollabClient {
    function send<T>(
      operation: string,
      method: HttpMethod,
      path: string,
      schema: z.ZodType<T>,
      opts: CallOptions | undefined,
      extra: { body?: unknown; query?: Record<string, string> } = {},
    ): Promise<T> {
      return http.send({ operation, method, path, schema, signal: opts?.signal, scope, ...extra });
    }

    async function list<T>(
      operation: string,
      path: string,
      querySchema: z.ZodType<AnyListQuery>,
      query: unknown,
      schema: z.ZodType<Page<T>>,
      opts: CallOptions | undefined,
    ): Promise<Page<T>> {
      const valid = validate(operation, querySchema, query);
      return send(operation, 'GET', path, schema, opts, { query: toQueryParams(valid, names) });
    }

    function walk<T extends { id: string }>(
      operation: string,
      path: () => string,
      querySchema: z.ZodType<AnyListQuery>,
      query: unknown,
      schema: z.ZodType<Page<T>>,
      opts: CallOptions | undefined,
    ): AsyncIterable<T> {
      return {
        [Symbol.asyncIterator]: () => {
          const { before: _unused, ...forward } = (query ?? {}) as Record<string, unknown>;
          const valid = validate(operation, querySchema, forward);
          const resolvedPath = path();
          return walkPages(
            (cursor) => list(operation, resolvedPath, querySchema, { ...valid, after: cursor }, schema, opts),
            valid.after,
          );
        },
      };
    }

    return {
      async createPost(input, opts) {
        const body = compact(validate('createPost', CreatePostInput, input));
        return send('createPost', 'POST', '/v2/posts', Post, opts, { body });
      },
      async listPosts(query, opts) {
        return list('listPosts', '/v2/posts', ListPostsQuery, query, PostPage, opts);
      },
      async getPost(id, opts) {
        return send('getPost', 'GET', `/v2/posts/${pathParam('getPost', 'id', id)}`, Post, opts);
      },
      async resolvePost(postId, input, opts) {
        const path = `/v2/posts/${pathParam('resolvePost', 'postId', postId)}/resolution`;
        const body = compact(validate('resolvePost', ResolvePostInput, input));
        return send('resolvePost', 'POST', path, Post, opts, { body });
      },
      async unresolvePost(postId, opts) {
        const path = `/v2/posts/${pathParam('unresolvePost', 'postId', postId)}/resolution`;
        return send('unresolvePost', 'DELETE', path, Post, opts);
      },
      async createComment(postId, input, opts) {
        const path = `/v2/posts/${pathParam('createComment', 'postId', postId)}/comments`;
        const body = compact(validate('createComment', CreateCommentInput, input));
        return send('createComment', 'POST', path, Comment, opts, { body });
      },
      async createThread(input, opts) {
        const body = compact(validate('createThread', CreateThreadInput, input));
        return send('createThread', 'POST', '/v2/threads', Thread, opts, { body });
      },
      async createMessage(threadId, input, opts) {
        const path = `/v2/threads/${pathParam('createMessage', 'threadId', threadId)}/messages`;
        const body = compact(validate('createMessage', CreateMessageInput, input));
        return send('createMessage', 'POST', path, Message, opts, { body });
      },
      async listMessages(threadId, query, opts) {
        const path = `/v2/threads/${pathParam('listMessages', 'threadId', threadId)}/messages`;
        return list('listMessages', path, ListMessagesQuery, query, MessagePage, opts);
      },
      async listMembers(query, opts) {
        return list('listMembers', '/v2/members', ListMembersQuery, query, MemberPage, opts);
      },
      async listChannels(query, opts) {
        return list('listChannels', '/v2/channels', ListChannelsQuery, query, ChannelPage, opts);
      },
      allPosts(query, opts) {
        return walk('allPosts', () => '/v2/posts', ListPostsQuery, query, PostPage, opts);
      },
      allMessages(threadId, query, opts) {
        const path = () => `/v2/threads/${pathParam('allMessages', 'threadId', threadId)}/messages`;
        return walk('allMessages', path, ListMessagesQuery, query, MessagePage, opts);
      },
      allMembers(query, opts) {
        return walk('allMembers', () => '/v2/members', ListMembersQuery, query, MemberPage, opts);
      },
      allChannels(query, opts) {
        return walk('allChannels', () => '/v2/channels', ListChannelsQuery, query, ChannelPage, opts);
      },
      scoped: (next) => clientOf(next),
      close() {
        return http.close();
      },
    };
  }

  return clientOf(undefined);
}

function wireNames(override: Partial<QueryNames> | undefined): QueryNames {
  try {
    return queryNames(override);
  } catch {
    throw new TypeError('collab client: queryNames must map each option to a non-empty parameter name');
  }
}
