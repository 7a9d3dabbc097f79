/** Odd but legal payloads: the schemas accept what the spec leaves open ("not shown"). */
import { describe, expect, it } from 'vitest';
import {
  ChannelPage,
  Comment,
  isResolved,
  MemberPage,
  Message,
  MessagePage,
  Post,
  PostPage,
  Thread,
} from '../../src/collab/schemas.ts';

const author = { id: 'u1', name: 'Ann', avatar_urls: { sm: 'https://a/sm.png' }, type: 'app' };

describe('Post', () => {
  it('accepts a null resolution (unresolved)', () => {
    const post = Post.parse({ id: 'p1', resolution: null });
    expect(isResolved(post)).toBe(false);
  });

  it('accepts an absent resolution (unresolved)', () => {
    const post = Post.parse({ id: 'p1' });
    expect(post.resolution).toBeUndefined();
    expect(isResolved(post)).toBe(false);
  });

  it('accepts a full resolution with a resolving comment', () => {
    const post = Post.parse({
      id: 'p1',
      resolution: {
        resolved_at: '2024-01-01T00:00:00Z',
        resolved_html: '<p>done</p>',
        resolved_by: author,
        resolved_comment: { id: 'c1', content: 'this', parent_id: null, author },
      },
    });
    expect(isResolved(post)).toBe(true);
    expect(post.resolution?.resolved_comment?.id).toBe('c1');
  });

  it('keeps an unknown author type as it is', () => {
    const post = Post.parse({ id: 'p1', author: { ...author, type: 'robot-from-the-future' } });
    expect(post.author?.type).toBe('robot-from-the-future');
  });

  it('lets extra fields pass through, at every level', () => {
    const post = Post.parse({
      id: 'p1',
      pinned: true,
      channel: { id: 'ch', name: 'general', color: 'red' },
      author: { ...author, title: 'CTO' },
    });
    expect(post).toMatchObject({ pinned: true, channel: { color: 'red' }, author: { title: 'CTO' } });
  });

  it('accepts missing optional fields (only the id)', () => {
    expect(Post.parse({ id: 'p1' })).toEqual({ id: 'p1' });
  });

  it('keeps HTML in content untouched (escaping is the renderer’s job)', () => {
    const content = '<script>alert(1)</script> <!channel> &amp; <b>bold</b>';
    expect(Post.parse({ id: 'p1', content }).content).toBe(content);
  });

  it('refuses a post without an id, or with a wrongly typed field', () => {
    expect(Post.safeParse({ title: 'x' }).success).toBe(false);
    expect(Post.safeParse({ id: 'p1', comments_count: 'many' }).success).toBe(false);
  });
});

describe('Comment, Message, Thread', () => {
  it('accepts a null parent_id and an unknown subject_type', () => {
    const comment = Comment.parse({ id: 'c1', parent_id: null, subject_type: 'Whiteboard', author });
    expect(comment).toMatchObject({ parent_id: null, subject_type: 'Whiteboard' });
  });

  it('accepts a message with a null author and a null parent_id', () => {
    const message = Message.parse({
      id: 'm1',
      content: 'hi',
      author: null,
      parent_id: null,
      thread_id: 't1',
    });
    expect(message.author).toBeNull();
  });

  it('accepts a thread with null avatar_urls and a creator without avatars', () => {
    const thread = Thread.parse({
      id: 't1',
      group: false,
      members_count: 2,
      avatar_urls: null,
      creator: { id: 'u1', name: 'Ann' },
    });
    expect(thread.avatar_urls).toBeNull();
  });

  it('accepts an avatar set with only some sizes and an extra one', () => {
    const thread = Thread.parse({ id: 't1', avatar_urls: { xs: 'x', huge: 'h' } });
    expect(thread.avatar_urls).toEqual({ xs: 'x', huge: 'h' });
  });
});

describe('list envelopes', () => {
  it('accept null cursors and a missing total_count', () => {
    const page = PostPage.parse({ data: [{ id: 'p1' }], next_cursor: null, prev_cursor: null });
    expect(page.next_cursor).toBeNull();
    expect(page.total_count).toBeUndefined();
  });

  it('accept absent cursors and extra envelope fields', () => {
    const page = MessagePage.parse({ data: [], total_count: 0, has_more: false });
    expect(page).toEqual({ data: [], total_count: 0, has_more: false });
  });

  it('accept members with a role outside the filter values and a deactivated flag', () => {
    const page = MemberPage.parse({
      data: [{ id: 'm1', role: 'owner', is_deactivated: true, user: { id: 'u1', email: null } }],
    });
    expect(page.data[0]?.role).toBe('owner');
  });

  it('refuse a page whose data is not an array, naming the path of a bad item', () => {
    expect(ChannelPage.safeParse({ data: null }).success).toBe(false);
    const bad = ChannelPage.safeParse({ data: [{ id: 'c1', name: 'a' }, { id: 'c2' }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['data', 1, 'name']);
  });
});
