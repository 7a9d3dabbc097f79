/**
 * The page walk of list endpoints: follow `next_cursor` page after page, yielding records
 * lazily (one page in memory at a time), and never loop.
 *
 * The walk ends when:
 * - `next_cursor` is missing, null or empty;
 * - a cursor comes back that was already followed (a service cycling between cursors);
 * - a page holds the same records as a page already seen (e.g. a service answering a cursor it
 *   does not know with the first page). That page is not yielded again.
 * Of each page only a digest of its ids is remembered, not the records.
 */
import { createHash } from 'node:crypto';
import type { Page } from './schemas.ts';

/** Fetches one page; `cursor` is undefined for the first page unless the caller gave one. */
export type FetchPage<T> = (cursor: string | undefined) => Promise<Page<T>>;

export async function* walkPages<T extends { id: string }>(
  fetchPage: FetchPage<T>,
  firstCursor?: string,
): AsyncGenerator<T, void, undefined> {
  const followed = new Set<string>();
  const seenPages = new Set<string>();
  let cursor = firstCursor === '' ? undefined : firstCursor;
  if (cursor !== undefined) followed.add(cursor);

  for (;;) {
    const page = await fetchPage(cursor);
    const digest = pageDigest(page.data);
    if (seenPages.has(digest)) return;
    seenPages.add(digest);

    yield* page.data;

    const next = page.next_cursor;
    if (next === undefined || next === null || next === '' || followed.has(next)) return;
    followed.add(next);
    cursor = next;
  }
}

function pageDigest(records: ReadonlyArray<{ id: string }>): string {
  const hash = createHash('sha256');
  for (const record of records) hash.update(`${record.id.length}:${record.id}`);
  return hash.digest('base64');
}
