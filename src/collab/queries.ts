/**
 * Options of the list endpoints (spec §4) and their translation into query parameters.
 *
 * Options are validated before anything is sent: unknown options (a typo such as `channel_id`
 * for `channelId`), a page size outside 1..50, a sort key the endpoint does not list, all refuse
 * the call. The parameter NAMES come only from the wire table (`wire.ts`); this file maps each
 * option to its entry in that table and never spells a name itself.
 */
import { z } from 'zod';
import {
  CHANNEL_SORT_KEYS,
  MEMBER_SORT_KEYS,
  MESSAGE_SORT_KEYS,
  MemberRole,
  PAGE_SIZE_MAX,
  POST_SORT_KEYS,
  SORT_DIRECTIONS,
} from './schemas.ts';
import { type QueryNames, ROLE_SEPARATOR } from './wire.ts';

const common = {
  /** cursor from a previous page's `next_cursor` */
  after: z.string().optional(),
  /** cursor from a previous page's `prev_cursor` */
  before: z.string().optional(),
  limit: z.number().int().min(1).max(PAGE_SIZE_MAX).optional(),
  direction: z.enum(SORT_DIRECTIONS).optional(),
};

export const ListPostsQuery = z.strictObject({
  ...common,
  sort: z.enum(POST_SORT_KEYS).optional(),
  channelId: z.string().optional(),
});
export type ListPostsQuery = z.infer<typeof ListPostsQuery>;

export const ListMessagesQuery = z.strictObject({
  ...common,
  sort: z.enum(MESSAGE_SORT_KEYS).optional(),
});
export type ListMessagesQuery = z.infer<typeof ListMessagesQuery>;

export const ListMembersQuery = z.strictObject({
  ...common,
  sort: z.enum(MEMBER_SORT_KEYS).optional(),
  search: z.string().optional(),
  roles: z.array(MemberRole).optional(),
});
export type ListMembersQuery = z.infer<typeof ListMembersQuery>;

export const ListChannelsQuery = z.strictObject({
  ...common,
  sort: z.enum(CHANNEL_SORT_KEYS).optional(),
  name: z.string().optional(),
});
export type ListChannelsQuery = z.infer<typeof ListChannelsQuery>;

/** Every option any list endpoint knows, after validation. */
export interface AnyListQuery {
  after?: string | undefined;
  before?: string | undefined;
  limit?: number | undefined;
  sort?: string | undefined;
  direction?: string | undefined;
  channelId?: string | undefined;
  search?: string | undefined;
  roles?: readonly string[] | undefined;
  name?: string | undefined;
}

/** Which entry of the wire table carries each option. */
const WIRE_KEY: { readonly [K in keyof Required<AnyListQuery>]: keyof QueryNames } = {
  after: 'after',
  before: 'before',
  limit: 'pageSize',
  channelId: 'channel',
  sort: 'sort',
  direction: 'direction',
  search: 'search',
  roles: 'roles',
  name: 'name',
};

/**
 * Query parameters of a validated list query. Undefined options, empty strings and empty role
 * lists are left out; roles travel as one value joined with ROLE_SEPARATOR.
 */
export function toQueryParams(query: AnyListQuery, names: QueryNames): Record<string, string> {
  const params: Record<string, string> = {};
  for (const option of Object.keys(WIRE_KEY) as Array<keyof AnyListQuery>) {
    const value = query[option];
    if (value === undefined) continue;
    const text = Array.isArray(value) ? [...new Set(value)].join(ROLE_SEPARATOR) : String(value);
    if (text === '') continue;
    params[names[WIRE_KEY[option]]] = text;
  }
  return params;
}
