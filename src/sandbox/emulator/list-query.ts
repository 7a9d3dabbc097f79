/**
 * The common query parameters of list endpoints: page size, sort key, sort direction and
 * cursors. Their names are "not shown" in the spec; they come from the project's one table
 * (`DEFAULT_QUERY_NAMES` in src/collab/wire.ts), overridable per emulator.
 *
 * The emulator's choices where the spec is silent:
 * - page size: default 50, maximum 50 (spec §8); not an integer, < 1 or > 50 → 400;
 * - default sort (no sort key given): newest first by creation (`DEFAULT_SORT_KEYS`, `desc`);
 *   a sort key given without a direction is `desc` too;
 * - an unknown sort key or direction → 400; both cursors at once → 400;
 * - an empty value of any of these parameters is invalid (400), except cursors (page 1).
 */
import { PAGE_SIZE_MAX } from '../../collab/schemas.ts';
import type { QueryNames } from '../../collab/wire.ts';
import type { PageRequest, SortDirection } from './cursor.ts';
import { badRequest } from './http-error.ts';

export const DEFAULT_PAGE_SIZE = 50;
export const DEFAULT_DIRECTION: SortDirection = 'desc';

export interface ListQuery<K extends string> extends PageRequest {
  sortKey: K;
  direction: SortDirection;
}

export function parseListQuery<K extends string>(
  query: URLSearchParams,
  names: QueryNames,
  sortKeys: readonly K[],
  defaultSortKey: K,
): ListQuery<K> {
  const limitRaw = query.get(names.pageSize);
  let limit = DEFAULT_PAGE_SIZE;
  if (limitRaw !== null) {
    if (!/^\d+$/.test(limitRaw))
      throw badRequest(`${names.pageSize} must be an integer from 1 to ${PAGE_SIZE_MAX}`);
    limit = Number(limitRaw);
    if (limit < 1 || limit > PAGE_SIZE_MAX) {
      throw badRequest(`${names.pageSize} must be an integer from 1 to ${PAGE_SIZE_MAX}`);
    }
  }

  const sortRaw = query.get(names.sort);
  let sortKey = defaultSortKey;
  if (sortRaw !== null) {
    const found = sortKeys.find((key) => key === sortRaw);
    if (found === undefined) throw badRequest(`${names.sort} must be one of ${sortKeys.join(', ')}`);
    sortKey = found;
  }

  const directionRaw = query.get(names.direction);
  let direction = DEFAULT_DIRECTION;
  if (directionRaw !== null) {
    if (directionRaw !== 'asc' && directionRaw !== 'desc') {
      throw badRequest(`${names.direction} must be asc or desc`);
    }
    direction = directionRaw;
  }

  const after = query.get(names.after) ?? undefined;
  const before = query.get(names.before) ?? undefined;
  if (after !== undefined && before !== undefined) {
    throw badRequest(`${names.after} and ${names.before} cannot be used together`);
  }
  return { limit, sortKey, direction, after, before };
}
