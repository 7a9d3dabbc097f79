/**
 * The common query parameters of list endpoints: page size, sort key, sort direction and
 * cursors. Their names come from the project's one table (`DEFAULT_QUERY_NAMES` in
 * src/collab/wire.ts), overridable per emulator. Values as the service reads them
 * (SERVICE-FACTS.md):
 * - page size: default 50; over 50 → 422; `0`, negative or not a number → 50;
 * - sort key and direction: lower-case values only, anything else → 422; without them, the
 *   list's default order (`DEFAULT_ORDERS` in routes.ts);
 * - cursors: see cursor.ts (an unknown one is ignored).
 */
import { PAGE_SIZE_MAX } from '../../collab/schemas.ts';
import type { QueryNames } from '../../collab/wire.ts';
import type { PageRequest, SortDirection } from './cursor.ts';
import { unprocessable } from './http-error.ts';

export const DEFAULT_PAGE_SIZE = 50;

export interface ListQuery<K extends string> extends PageRequest {
  sortKey: K;
  direction: SortDirection;
}

export interface ListDefaults<K extends string> {
  sortKey: K;
  direction: SortDirection;
}

function pageSize(raw: string | null): number {
  if (raw === null) return DEFAULT_PAGE_SIZE;
  const value = Number.parseInt(raw, 10);
  if (!Number.isFinite(value) || value <= 0) return DEFAULT_PAGE_SIZE;
  if (value > PAGE_SIZE_MAX) throw unprocessable(`Limit must be less than or equal to ${PAGE_SIZE_MAX}`);
  return value;
}

export function parseListQuery<K extends string>(
  query: URLSearchParams,
  names: QueryNames,
  sortKeys: readonly K[],
  defaults: ListDefaults<K>,
): ListQuery<K> {
  const limit = pageSize(query.get(names.pageSize));

  const sortRaw = query.get(names.sort);
  let sortKey = defaults.sortKey;
  if (sortRaw !== null) {
    const found = sortKeys.find((key) => key === sortRaw);
    if (found === undefined) throw unprocessable(`Sort must be one of ${sortKeys.join(', ')}`);
    sortKey = found;
  }

  const directionRaw = query.get(names.direction);
  let direction = defaults.direction;
  if (directionRaw !== null) {
    if (directionRaw !== 'asc' && directionRaw !== 'desc')
      throw unprocessable('Direction must be asc or desc');
    direction = directionRaw;
  }

  const after = query.get(names.after) || undefined;
  const before = query.get(names.before) || undefined;
  return { limit, sortKey, direction, after, before };
}
