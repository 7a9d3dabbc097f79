/**
 * Keyset pagination with opaque cursors, both ways.
 *
 * A cursor is base64url(JSON) of an anchor: the sort value and id of the first (prev_cursor) or
 * last (next_cursor) item of a page, plus a signature of the list and its sort. Sent as the
 * "after" parameter it yields the items following the anchor, as "before" the items preceding
 * it. Ties on the sort value break by id in the sort's direction, so pages never overlap, and
 * inserts between requests never repeat or skip an already seen item.
 *
 * Quirk (deliberate): a cursor that cannot be decoded, or was made for another list or sort,
 * is ignored and the first page is answered, as some services do. The client must guard
 * against walking in circles.
 */
export type SortValue = string | number;
export type SortDirection = 'asc' | 'desc';

interface Anchor {
  v: SortValue;
  i: string;
  s: string;
}

export interface Ordering<T> {
  direction: SortDirection;
  /** Identifies list + sort key + direction; a cursor with another signature is ignored. */
  signature: string;
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

export function encodeCursor(anchor: Anchor): string {
  return Buffer.from(JSON.stringify(anchor), 'utf8').toString('base64url');
}

export function decodeCursor(raw: string, signature: string): Anchor | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (parsed === null || typeof parsed !== 'object') return undefined;
    const { v, i, s } = parsed as Record<string, unknown>;
    const validValue = typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
    if (!validValue || typeof i !== 'string' || s !== signature) return undefined;
    return { v, i, s };
  } catch {
    return undefined;
  }
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

  let start = 0;
  let end = Math.min(request.limit, keyed.length);
  const after = request.after === undefined ? undefined : decodeCursor(request.after, ordering.signature);
  const before = request.before === undefined ? undefined : decodeCursor(request.before, ordering.signature);
  if (after) {
    const index = keyed.findIndex((entry) => sign * compareKeys(entry, after) > 0);
    start = index === -1 ? keyed.length : index;
    end = Math.min(start + request.limit, keyed.length);
  } else if (before) {
    const index = keyed.findIndex((entry) => sign * compareKeys(entry, before) >= 0);
    end = index === -1 ? keyed.length : index;
    start = Math.max(0, end - request.limit);
  }

  const page = keyed.slice(start, end);
  const first = page[0];
  const last = page[page.length - 1];
  const anchor = (entry: { v: SortValue; i: string }) =>
    encodeCursor({ v: entry.v, i: entry.i, s: ordering.signature });
  return {
    data: page.map((entry) => entry.item),
    total_count: keyed.length,
    next_cursor: last && end < keyed.length ? anchor(last) : null,
    prev_cursor: first && start > 0 ? anchor(first) : null,
  };
}
