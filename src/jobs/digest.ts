/**
 * What a digest says, computed from a stream of posts sorted by `last_activity_at` descending:
 * the walk stops at the first post older than the window, and only the top few of each group
 * are kept (with counts), so memory stays flat however many posts the window holds.
 *
 * Window: activity after `since` and at or before `until` (the slot). Groups:
 * - new: created in the window (newest first);
 * - resolved: resolved in the window and still resolved (latest first);
 * - active: the window's posts with the most comments;
 * - open: older posts that saw activity in the window and are still unresolved.
 */
import { isResolved, type Post } from '../collab/schemas.ts';
import { postContent, resolverPlain } from '../render/attribution.ts';
import type { DigestGroup, DigestItem, DigestSummary } from '../render/digest.ts';
import { mrkdwnToPlain, unescapeMrkdwn } from '../render/text.ts';

/** Posts shown per group; the rest are counted ("…and N more"). */
export const DIGEST_TOP = 5;
/** A walk never reads more than this many posts (a service that ignores the sort never ends otherwise). */
export const DIGEST_MAX_SCAN = 50_000;

export function isQuiet(summary: DigestSummary): boolean {
  return summary.newPosts.count + summary.resolved.count + summary.active.count + summary.open.count === 0;
}

/** Timestamps are opaque strings; unparseable ones read as undefined. */
function ms(raw: string | null | undefined): number | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const t = Date.parse(raw);
  return Number.isFinite(t) ? t : undefined;
}

/** A bounded "top N by key, descending" list: O(N) insertion, N small. */
class Top {
  readonly items: Array<{ key: number; item: DigestItem }> = [];
  count = 0;
  constructor(readonly size: number) {}
  offer(key: number, make: () => DigestItem): void {
    this.count += 1;
    if (this.items.length >= this.size && key <= this.items[this.items.length - 1]!.key) return;
    let i = this.items.length;
    while (i > 0 && this.items[i - 1]!.key < key) i--;
    this.items.splice(i, 0, { key, item: make() });
    if (this.items.length > this.size) this.items.pop();
  }
  group(): DigestGroup {
    return { items: this.items.map((e) => e.item), count: this.count };
  }
}

/** The author's name; for a post made from Slack through the bot, the person ("Ada via Slack"). */
function authorOf(post: Post): string | undefined {
  const { person } = postContent(post);
  return person ? `${unescapeMrkdwn(person)} via Slack` : (post.author?.name ?? undefined);
}

function itemOf(post: Post, activityMs: number): DigestItem {
  // The words of the post, without the bot's own attribution line (the author says it).
  const words = typeof post.content === 'string' ? mrkdwnToPlain(postContent(post).text) : '';
  const excerpt = words ? words.slice(0, 300) : undefined;
  return {
    id: post.id,
    title: post.title,
    content: post.title?.trim() ? undefined : excerpt,
    url: post.url,
    channel: post.channel?.name ?? post.channel?.id,
    author: authorOf(post),
    commentsCount: typeof post.comments_count === 'number' ? post.comments_count : 0,
    resolvedBy: isResolved(post) ? resolverPlain(post) : undefined,
    createdMs: ms(post.created_at),
    activityMs,
    resolvedMs: ms(post.resolution?.resolved_at),
  };
}

export async function collectDigest(
  posts: AsyncIterable<Post>,
  window: { since: number; until: number },
  options: { top?: number; maxScan?: number } = {},
): Promise<DigestSummary> {
  const top = options.top ?? DIGEST_TOP;
  const maxScan = options.maxScan ?? DIGEST_MAX_SCAN;
  const { since, until } = window;
  const newPosts = new Top(top);
  const resolved = new Top(top);
  const active = new Top(top);
  const open = new Top(top);
  let scanned = 0;
  let truncated = false;
  for await (const post of posts) {
    scanned += 1;
    if (scanned > maxScan) {
      truncated = true;
      break;
    }
    const activity = ms(post.last_activity_at) ?? ms(post.created_at);
    if (activity === undefined || activity > until) continue;
    if (activity <= since) break;
    const make = () => itemOf(post, activity);
    const created = ms(post.created_at);
    const isNew = created !== undefined && created > since && created <= until;
    const done = isResolved(post);
    const resolvedAt = ms(post.resolution?.resolved_at);
    if (isNew) newPosts.offer(created, make);
    if (done && resolvedAt !== undefined && resolvedAt > since && resolvedAt <= until)
      resolved.offer(resolvedAt, make);
    const comments = typeof post.comments_count === 'number' ? post.comments_count : 0;
    // Ties of comment counts go to the most recent activity (the fraction stays below 1).
    if (comments > 0) active.offer(comments + activity / 1e16, make);
    if (!done && !isNew) open.offer(activity, make);
  }
  return {
    since,
    until,
    newPosts: newPosts.group(),
    resolved: resolved.group(),
    active: active.group(),
    open: open.group(),
    scanned: Math.min(scanned, maxScan),
    truncated,
  };
}

/**
 * Adds what re-reading posts by id found, which the walk by activity cannot see (resolving and
 * reopening move no `last_activity_at`): resolutions to "resolved", reopenings to "still unresolved".
 */
export function withRechecked(
  summary: DigestSummary,
  found: { resolved: readonly Post[]; reopened: readonly Post[] },
  top: number = DIGEST_TOP,
): DigestSummary {
  const merge = (group: DigestGroup, posts: readonly Post[], key: (item: DigestItem) => number) => {
    if (posts.length === 0) return group;
    const added = posts.map((post) =>
      itemOf(post, ms(post.last_activity_at) ?? ms(post.created_at) ?? summary.since),
    );
    const items = [...group.items, ...added].sort((a, b) => key(b) - key(a)).slice(0, top);
    return { items, count: group.count + posts.length };
  };
  return {
    ...summary,
    resolved: merge(summary.resolved, found.resolved, (i) => i.resolvedMs ?? 0),
    open: merge(summary.open, found.reopened, (i) => i.activityMs),
  };
}
