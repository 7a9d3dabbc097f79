/**
 * The one table of values the spec leaves "not shown" on the wire: the names of the query
 * parameters of list endpoints. Defaults are the names the public reference of the v2 API
 * uses; an operator overrides any of them through configuration (`COLLAB_QUERY_NAMES`, JSON).
 */
import { z } from 'zod';

export const QueryNames = z.object({
  /** cursor taken from `next_cursor` */
  after: z.string().min(1),
  /** cursor taken from `prev_cursor` */
  before: z.string().min(1),
  pageSize: z.string().min(1),
  channel: z.string().min(1),
  sort: z.string().min(1),
  direction: z.string().min(1),
  /** members: text matched against name or email */
  search: z.string().min(1),
  /** members: comma-separated roles */
  roles: z.string().min(1),
  /** channels: name filter */
  name: z.string().min(1),
});
export type QueryNames = z.infer<typeof QueryNames>;

export const DEFAULT_QUERY_NAMES: QueryNames = {
  after: 'after',
  before: 'before',
  pageSize: 'limit',
  channel: 'channel_id',
  sort: 'sort',
  direction: 'direction',
  search: 'q',
  roles: 'roles',
  name: 'name',
};

/** Merges an operator's partial override onto the defaults; throws a readable error if malformed. */
export function queryNames(override?: Partial<QueryNames>): QueryNames {
  return QueryNames.parse({ ...DEFAULT_QUERY_NAMES, ...(override ?? {}) });
}

/** Roles travel as one comma-separated value (spec §4.3). */
export const ROLE_SEPARATOR = ',';
