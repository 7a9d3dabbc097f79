/**
 * Filters of a feed or a digest: which posts of the collaboration channel it shows. Only
 * unresolved posts, none written by integrations (author type `app`), posts whose title or content
 * holds one of some words, none holding any of others. Absent or empty: every post.
 */
import { z } from 'zod';
import { isResolved, type Post } from './schemas.ts';

const Word = z.string().trim().min(1).max(100);

export const PostFilters = z.object({
  /** only posts not resolved (when the feed or digest sees them) */
  unresolved: z.boolean().optional(),
  /** leave out posts written by integrations (author type `app`) */
  noApps: z.boolean().optional(),
  /** the title or content holds at least one of these (case-insensitive) */
  with: z.array(Word).max(10).optional(),
  /** the title or content holds none of these (case-insensitive) */
  without: z.array(Word).max(10).optional(),
});
export type PostFilters = z.infer<typeof PostFilters>;

/** Whether the filters let anything out. */
export function hasFilters(filters: PostFilters | undefined): filters is PostFilters {
  return (
    filters !== undefined &&
    (filters.unresolved === true ||
      filters.noApps === true ||
      (filters.with?.length ?? 0) > 0 ||
      (filters.without?.length ?? 0) > 0)
  );
}

/** Whether `post` passes the filters (every post passes none). */
export function passesFilters(post: Post, filters: PostFilters | undefined): boolean {
  if (!hasFilters(filters)) return true;
  if (filters.unresolved === true && isResolved(post)) return false;
  if (filters.noApps === true && post.author?.type === 'app') return false;
  const text = `${post.title ?? ''}\n${post.content ?? ''}`.toLowerCase();
  const holds = (word: string) => text.includes(word.toLowerCase());
  if ((filters.with?.length ?? 0) > 0 && !filters.with!.some(holds)) return false;
  if ((filters.without ?? []).some(holds)) return false;
  return true;
}
