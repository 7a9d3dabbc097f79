/**
 * Watermarks of polled lists (feeds sorted by `last_activity_at`, thread messages by
 * `created_at`): the newest instant seen, and the ids seen at exactly that instant, so items
 * sharing a timestamp are neither skipped nor taken twice. Pure.
 *
 * Timestamp formats are "not shown": instants are compared as dates when both parse, else as
 * strings; an item without a timestamp is never "after" a watermark that has one.
 */
import type { Page } from '../collab/schemas.ts';
import type { Watermark } from '../store/feeds.ts';

export type { Watermark };

export const EMPTY_WATERMARK: Watermark = { at: null, ids: [] };

export interface Stamped {
  id: string;
  at: string | null | undefined;
}

/** <0, 0, >0 as `a` is before, at, after `b`. */
export function compareInstants(a: string, b: string): number {
  const x = Date.parse(a);
  const y = Date.parse(b);
  if (!Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether an item is newer than the watermark (not seen yet). */
export function isAfter(item: Stamped, mark: Watermark): boolean {
  if (mark.at === null) return true;
  if (!item.at) return false;
  const order = compareInstants(item.at, mark.at);
  return order > 0 || (order === 0 && !mark.ids.includes(item.id));
}

/** The watermark once `items` are seen too. */
export function advance(mark: Watermark, items: readonly Stamped[]): Watermark {
  let next: Watermark = { at: mark.at, ids: [...mark.ids] };
  for (const item of items) {
    if (!item.at) continue;
    const order = next.at === null ? 1 : compareInstants(item.at, next.at);
    if (order > 0) next = { at: item.at, ids: [item.id] };
    else if (order === 0 && !next.ids.includes(item.id)) next.ids.push(item.id);
  }
  return next;
}

/**
 * The items of a newest-first list that are newer than the watermark, up to the first that is
 * not: answers them and whether the watermark was reached (false: an older page may hold more).
 */
export function newerThan<T>(
  newestFirst: readonly T[],
  mark: Watermark,
  stamp: (item: T) => Stamped,
): { fresh: T[]; reached: boolean } {
  const fresh: T[] = [];
  for (const item of newestFirst) {
    if (!isAfter(stamp(item), mark)) return { fresh, reached: true };
    fresh.push(item);
  }
  return { fresh, reached: false };
}

/**
 * The items newer than the watermark across a newest-first paged list (`page(after)`): one page
 * unless a burst needs more, at most `maxPages`. `complete` is false when the cap stopped the
 * walk before the watermark: older items were skipped.
 */
export async function newerThanPaged<T>(
  page: (after: string | undefined) => Promise<Page<T>>,
  mark: Watermark,
  stamp: (item: T) => Stamped,
  maxPages: number,
): Promise<{ fresh: T[]; complete: boolean }> {
  const fresh: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < maxPages; pages++) {
    const got = await page(cursor);
    const { fresh: newer, reached } = newerThan(got.data, mark, stamp);
    fresh.push(...newer);
    cursor = got.next_cursor ?? undefined;
    if (reached || !cursor || got.data.length === 0) return { fresh, complete: true };
  }
  return { fresh, complete: false };
}
