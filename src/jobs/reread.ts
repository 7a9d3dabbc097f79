/**
 * Re-reading watched posts by id: resolving or reopening a post moves no `last_activity_at` in
 * the service, so a walk by activity never sees it. Feeds and digests both keep a capped list of
 * posts to read again, and read a bounded batch of it per run, least recently read first.
 */
import { isCollabError } from '../collab/errors.ts';
import type { Post } from '../collab/schemas.ts';
import type { ProcessorContext } from './context.ts';

/** The watched posts this run did not already see, least recently read first, at most `batch`. */
export function dueForReread<T extends { checkedAt: number }>(
  watched: Iterable<[string, T]>,
  seen: ReadonlySet<string>,
  batch: number,
): Array<[string, T]> {
  return [...watched]
    .filter(([postId]) => !seen.has(postId))
    .sort(([, a], [, b]) => a.checkedAt - b.checkedAt)
    .slice(0, batch);
}

/** The post, or undefined when it is gone or out of the key's sight (a private channel). */
export async function rereadPost(ctx: ProcessorContext, postId: string): Promise<Post | undefined> {
  try {
    return await ctx.collab.getPost(postId);
  } catch (error) {
    if (isCollabError(error) && (error.reason === 'notFound' || error.reason === 'forbidden'))
      return undefined;
    throw error;
  }
}
