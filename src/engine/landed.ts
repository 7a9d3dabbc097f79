/**
 * Looking for a create that may have landed (its answer was lost) among the newest records of a
 * list, newest first. The search is bounded by time, not by a count: it walks back page by page
 * until the records are well older than the job's first attempt (`since`, less the clock
 * margin), so however many records arrived since, the one that landed is seen. A list too busy
 * to walk back that far ({@link MAX_WALK} records) cannot settle it: that is an error, never a
 * "not found" — a resend would risk a duplicate, so the operation stays in doubt instead.
 */

import { UnsettledError } from './errors.ts';

/** How far the service's clock may be behind ours. */
export const CLOCK_MARGIN_MS = 5 * 60_000;

/** The most records one search reads. */
export const MAX_WALK = 2000;
/** Consecutive records older than the cutoff after which the search stops (lists sort by publication, not creation). */
const OLDER_RUN = 50;

export async function findSince<T extends { created_at?: string | null | undefined }>(
  records: AsyncIterable<T>,
  since: number,
  matches: (record: T) => boolean,
): Promise<T | undefined> {
  const cutoff = since - CLOCK_MARGIN_MS;
  let read = 0;
  let older = 0;
  for await (const record of records) {
    if (matches(record)) return record;
    read += 1;
    const at = record.created_at ? Date.parse(record.created_at) : Number.NaN;
    older = !Number.isNaN(at) && at < cutoff ? older + 1 : 0;
    if (older >= OLDER_RUN) return undefined;
    if (read >= MAX_WALK) {
      throw new UnsettledError(`could not tell whether the create landed: over ${MAX_WALK} newer records`);
    }
  }
  return undefined;
}
