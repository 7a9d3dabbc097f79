/**
 * The posts a digest re-reads by id. Resolving and reopening a post in the service do not move its
 * `last_activity_at`, so the digest's walk (newest activity first, down to the window's start)
 * never sees a post resolved or reopened with no other activity. Each digest therefore keeps the
 * open posts its walks have seen (at most DIGEST_WATCH_MAX, least recently read dropped first),
 * with the resolution it last knew, and each run re-reads up to DIGEST_RECHECK_BATCH of them that
 * the walk did not already see, least recently read first:
 *
 * - a post now resolved, at or before the window's end, with a resolution the digest did not know
 *   is listed under "resolved" (a resolution read late, because of the batch, is still told once);
 * - a post known resolved and now open again is listed under "still unresolved";
 * - a post resolved after the window's end keeps its old state, so the next digest tells it.
 *
 * A post known resolved stays watched (for a reopening) until RESOLVED_WATCH_MS after its
 * resolution; a post gone or out of the key's sight is forgotten. What was learnt is saved only
 * after the digest was posted (or had nothing to say), so a retried run tells the same changes.
 */

import { type PostFilters, passesFilters } from '../collab/postFilters.ts';
import { isResolved, type Post } from '../collab/schemas.ts';
import { DIGEST_WATCH_MAX, type DigestWatched } from '../store/digests.ts';
import type { ProcessorContext } from './context.ts';
import { dueForReread, rereadPost } from './reread.ts';

/** Watched posts one digest run re-reads by id at most. */
export const DIGEST_RECHECK_BATCH = 50;
/** How long a digest keeps re-reading a resolved post, to notice a reopening. */
export const RESOLVED_WATCH_MS = 7 * 24 * 3600_000;

function ms(raw: string | null | undefined): number | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const t = Date.parse(raw);
  return Number.isFinite(t) ? t : undefined;
}

export interface Rechecked {
  resolved: Post[];
  reopened: Post[];
}

export interface DigestWatch {
  /** Passes the walk's posts through, noting the window's posts (their state, new ones to watch). */
  observe(posts: AsyncIterable<Post>): AsyncIterable<Post>;
  /** Re-reads the watched posts the walk did not see; answers what changed unseen. */
  recheck(): Promise<Rechecked>;
  /** Saves what this run learnt, for every digest it speaks for. */
  save(): Promise<void>;
}

/**
 * The watch of the digests `digestIds` (one for a scheduled digest; the Slack channel's for a digest
 * run by hand, which moves all their windows) over `window`.
 */
export async function digestWatch(
  ctx: ProcessorContext,
  digestIds: readonly string[],
  window: { since: number; until: number },
  filters: PostFilters | undefined,
): Promise<DigestWatch> {
  const { since, until } = window;
  const known = new Map<string, DigestWatched>();
  for (const digestId of digestIds) {
    for (const [postId, entry] of await ctx.store.digests.watched(ctx.teamId, digestId)) {
      const other = known.get(postId);
      // Several digests: the least recently read entry, so nothing one of them missed is lost.
      if (!other || entry.checkedAt < other.checkedAt) known.set(postId, entry);
    }
  }
  const updates = new Map<string, DigestWatched>();
  const drops = new Set<string>();
  const seen = new Set<string>();
  const late: Post[] = [];
  let added = 0;

  /** The entry after reading `post`, and what changed since the digest last knew it. */
  const classify = (
    post: Post,
    entry: DigestWatched | undefined,
  ): { next: DigestWatched | undefined; change?: 'resolved' | 'reopened' } => {
    const now = Date.now();
    if (!isResolved(post)) {
      const change = entry && entry.resolvedAt !== null ? 'reopened' : undefined;
      return { next: { checkedAt: now, resolvedAt: null }, ...(change ? { change } : {}) };
    }
    const resolvedAt = post.resolution?.resolved_at ?? '';
    const resolvedMs = ms(resolvedAt);
    // Resolved after the window: the next digest tells it.
    if (resolvedMs !== undefined && resolvedMs > until) {
      return { next: { checkedAt: now, resolvedAt: entry?.resolvedAt ?? null } };
    }
    const change = entry !== undefined && entry.resolvedAt !== resolvedAt ? 'resolved' : undefined;
    if (!change && resolvedMs !== undefined && now - resolvedMs > RESOLVED_WATCH_MS)
      return { next: undefined };
    return { next: { checkedAt: now, resolvedAt }, ...(change ? { change } : {}) };
  };

  async function* observe(posts: AsyncIterable<Post>): AsyncIterable<Post> {
    for await (const post of posts) {
      const activity = ms(post.last_activity_at) ?? ms(post.created_at);
      if (activity !== undefined && activity > since && activity <= until) {
        const entry = known.get(post.id);
        const { next, change } = classify(post, entry);
        if (entry) {
          seen.add(post.id);
          if (next) updates.set(post.id, next);
          else drops.add(post.id);
          // The walk lists resolutions of the window; one from before it, never told, is late.
          const resolvedMs = ms(post.resolution?.resolved_at);
          if (change === 'resolved' && resolvedMs !== undefined && resolvedMs <= since) late.push(post);
        } else if (next?.resolvedAt === null && added < DIGEST_WATCH_MAX) {
          updates.set(post.id, next);
          added += 1;
        }
      }
      yield post;
    }
  }

  async function recheck(): Promise<Rechecked> {
    const found: Rechecked = {
      resolved: late.filter((post) => passesFilters(post, filters)),
      reopened: [],
    };
    for (const [postId, entry] of dueForReread(known, seen, DIGEST_RECHECK_BATCH)) {
      const post = await rereadPost(ctx, postId);
      // Gone, or out of the key's sight: nothing more to watch.
      if (!post) {
        drops.add(postId);
        continue;
      }
      const { next, change } = classify(post, entry);
      if (next) updates.set(postId, next);
      else drops.add(postId);
      if (change && passesFilters(post, filters)) found[change].push(post);
    }
    return found;
  }

  async function save(): Promise<void> {
    for (const digestId of digestIds) await ctx.store.digests.watch(ctx.teamId, digestId, updates, drops);
  }

  return { observe, recheck, save };
}
