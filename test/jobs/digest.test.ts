/** The digest's walk: grouped, top-N with counts, and it stops at the window's start. */
import { describe, expect, it } from 'vitest';
import type { Post } from '../../src/collab/schemas.ts';
import { collectDigest, isQuiet } from '../../src/jobs/digest.ts';

const T0 = Date.parse('2026-05-01T00:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

function post(
  i: number,
  init: { created: number; activity: number; comments?: number; resolvedAt?: number },
): Post {
  return {
    id: `pst_${i}`,
    title: `Post ${i}`,
    url: `https://collab.example.com/p/${i}`,
    content: 'x'.repeat(10_000),
    created_at: at(init.created),
    last_activity_at: at(init.activity),
    comments_count: init.comments ?? 0,
    channel: { id: 'chn_1', name: 'engineering' },
    author: { id: 'mbr_1', name: 'Ada' },
    resolution:
      init.resolvedAt === undefined
        ? null
        : { resolved_at: at(init.resolvedAt), resolved_by: { id: 'mbr_2', name: 'Grace' } },
  };
}

/** Posts sorted by activity descending, counting how many were read. */
function stream(posts: Post[]) {
  const read = { count: 0 };
  const sorted = [...posts].sort((a, b) => Date.parse(b.last_activity_at!) - Date.parse(a.last_activity_at!));
  return {
    read,
    iterable: (async function* () {
      for (const p of sorted) {
        read.count += 1;
        yield p;
      }
    })(),
  };
}

describe('collectDigest', () => {
  const window = { since: T0 + 60 * 60_000, until: T0 + 120 * 60_000 };

  it('groups new, resolved, most active and still unresolved, and stops at the window start', async () => {
    const posts = [
      post(1, { created: 70, activity: 70 }), // new
      post(2, { created: 10, activity: 90, comments: 4 }), // old, commented in window: open + active
      post(3, { created: 10, activity: 100, resolvedAt: 100, comments: 1 }), // resolved in window
      post(4, { created: 80, activity: 110, resolvedAt: 110 }), // new and resolved
      post(5, { created: 10, activity: 130 }), // after the slot: ignored
      post(6, { created: 10, activity: 50 }), // before the window: the walk stops here
      post(7, { created: 5, activity: 40 }),
      post(8, { created: 5, activity: 30 }),
    ];
    const { read, iterable } = stream(posts);
    const summary = await collectDigest(iterable, window);
    expect(summary.newPosts.items.map((i) => i.id)).toEqual(['pst_4', 'pst_1']);
    expect(summary.resolved.items.map((i) => i.id)).toEqual(['pst_4', 'pst_3']);
    expect(summary.active.items.map((i) => i.id)).toEqual(['pst_2', 'pst_3']);
    expect(summary.open.items.map((i) => i.id)).toEqual(['pst_2']);
    expect(read.count).toBe(6);
    expect(isQuiet(summary)).toBe(false);
  });

  it('keeps only the top N of each group, counting the rest, without keeping content', async () => {
    const posts = Array.from({ length: 500 }, (_, i) =>
      post(i, { created: 61 + (i % 50), activity: 61 + (i % 59), comments: i }),
    );
    const summary = await collectDigest(stream(posts).iterable, window, { top: 5 });
    expect(summary.newPosts.count).toBe(500);
    expect(summary.newPosts.items).toHaveLength(5);
    expect(summary.active.items.map((i) => i.commentsCount)).toEqual([499, 498, 497, 496, 495]);
    expect(summary.active.items.every((i) => i.content === undefined)).toBe(true);
  });

  it('is quiet when nothing happened in the window', async () => {
    const summary = await collectDigest(stream([post(1, { created: 1, activity: 2 })]).iterable, window);
    expect(isQuiet(summary)).toBe(true);
    expect(summary.scanned).toBe(1);
  });

  it('stops after maxScan posts when the service ignores the sort', async () => {
    const posts = Array.from({ length: 50 }, (_, i) => post(i, { created: 10, activity: 130 }));
    const summary = await collectDigest(stream(posts).iterable, window, { maxScan: 20 });
    expect(summary.truncated).toBe(true);
    expect(summary.scanned).toBe(20);
  });
});
