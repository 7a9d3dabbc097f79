/**
 * Pagination as the service does it (SERVICE-FACTS.md): a cursor is the id of an item.
 *
 * - `next_cursor` is the last item's id when more items follow, else `null`;
 * - `prev_cursor` is `null` unless the request itself used `before`; then it is the first item's
 *   id when more items precede;
 * - `after=<id>` answers the items following that item in the list's order, `before=<id>` the
 *   items preceding it; an unknown (or deleted) id is ignored: the first page comes back;
 * - `total_count` is the size of the whole filtered collection.
 * The order always breaks ties on id.
 */
export type SortValue = string | number;
export type SortDirection = 'asc' | 'desc';

export interface Ordering<T> {
  direction: SortDirection;
  value: (item: T) => SortValue;
  id: (item: T) => string;
}

export interface PageRequest {
  limit: number;
  /** Cursor from `next_cursor`. */
  after?: string | undefined;
  /** Cursor from `prev_cursor`. */
  before?: string | undefined;
}

export interface PageResult<T> {
  data: T[];
  total_count: number;
  next_cursor: string | null;
  prev_cursor: string | null;
}

function compareKeys(a: { v: SortValue; i: string }, b: { v: SortValue; i: string }): number {
  if (a.v < b.v) return -1;
  if (a.v > b.v) return 1;
  if (a.i < b.i) return -1;
  if (a.i > b.i) return 1;
  return 0;
}

/** Sorts `items` by the ordering and cuts the page the request asks for. */
export function paginate<T>(items: readonly T[], ordering: Ordering<T>, request: PageRequest): PageResult<T> {
  const sign = ordering.direction === 'asc' ? 1 : -1;
  const keyed = items.map((item) => ({ item, v: ordering.value(item), i: ordering.id(item) }));
  keyed.sort((a, b) => sign * compareKeys(a, b));
  const indexOf = (id: string | undefined) =>
    id === undefined ? -1 : keyed.findIndex((entry) => entry.i === id);

  let start = 0;
  let end = Math.min(request.limit, keyed.length);
  const afterIndex = indexOf(request.after);
  const beforeIndex = afterIndex === -1 ? indexOf(request.before) : -1;
  if (afterIndex !== -1) {
    start = afterIndex + 1;
    end = Math.min(start + request.limit, keyed.length);
  } else if (beforeIndex !== -1) {
    end = beforeIndex;
    start = Math.max(0, end - request.limit);
  }

  const page = keyed.slice(start, end);
  const first = page[0];
  const last = page[page.length - 1];
  const usedBefore = request.before !== undefined && request.after === undefined;
  return {
    data: page.map((entry) => entry.item),
    total_count: keyed.length,
    next_cursor: last && end < keyed.length ? last.i : null,
    prev_cursor: usedBefore && first && start > 0 ? first.i : null,
  };
}
