/**
 * The client against the embedded emulator (src/sandbox/emulator): all 11 operations and the
 * 4 page walks, data round trips, what the emulator received, and a walk of more than three
 * pages forward with next_cursor then backward with prev_cursor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CollabClient, createCollabClient } from '../../src/collab/client.ts';
import { isResolved, type Page, type Post } from '../../src/collab/schemas.ts';
import { startEmulator } from '../../src/sandbox/emulator/index.ts';
import { failure } from './helpers.ts';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

let emulator: Emulator;
let client: CollabClient;

beforeAll(async () => {
  emulator = await startEmulator({ seed: true });
  client = createCollabClient({ baseUrl: emulator.url, apiKey: emulator.apiKey });
});

afterAll(async () => {
  await client?.close();
  await emulator?.close();
});

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

const ids = (items: ReadonlyArray<{ id: string }>) => items.map((item) => item.id);

describe('client against the emulator', () => {
  it('lists channels and members, with filters', async () => {
    const channels = await client.listChannels({ sort: 'name', direction: 'asc' });
    expect(channels.data.length).toBeGreaterThan(0);
    const names = channels.data.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));

    const first = channels.data[0]!;
    const byName = await client.listChannels({ name: first.name });
    expect(ids(byName.data)).toContain(first.id);

    const members = await client.listMembers({ limit: 50 });
    expect(members.data.length).toBeGreaterThan(0);
    const admins = await client.listMembers({ roles: ['admin'], sort: 'created_at', direction: 'asc' });
    expect(admins.data.length).toBeGreaterThan(0);
    for (const member of admins.data) expect(member.role).toBe('admin');

    const someone = members.data.find((m) => m.user.email)!;
    const found = await client.listMembers({ search: someone.user.email ?? '' });
    expect(ids(found.data)).toContain(someone.id);
  });

  it('creates, reads, comments, resolves and unresolves a post', async () => {
    const channel = (await client.listChannels()).data[0]!;
    const created = await client.createPost({
      content_markdown: 'Release **2.0** is out',
      title: 'Release notes',
      channel_id: channel.id,
    });
    expect(created.title).toBe('Release notes');
    expect(created.channel?.id).toBe(channel.id);
    expect(created.content).toContain('2.0');
    expect(isResolved(created)).toBe(false);

    const read = await client.getPost(created.id);
    expect(read).toMatchObject({ id: created.id, title: 'Release notes', channel: { id: channel.id } });

    const untitled = await client.createPost({
      content_markdown: 'Only content',
      title: '',
      channel_id: channel.id,
    });
    expect(untitled.content).toContain('Only content');

    const comment = await client.createComment(created.id, { content_markdown: 'Congrats!' });
    expect(comment.content).toContain('Congrats!');
    const reply = await client.createComment(created.id, {
      content_markdown: 'Thanks',
      parent_id: comment.id,
    });
    expect(reply.parent_id).toBe(comment.id);
    expect((await client.getPost(created.id)).comments_count).toBe(2);

    const resolved = await client.resolvePost(created.id, { comment_id: comment.id });
    expect(isResolved(resolved)).toBe(true);
    expect(resolved.resolution?.resolved_comment?.id).toBe(comment.id);

    const unresolved = await client.unresolvePost(created.id);
    expect(isResolved(unresolved)).toBe(false);
    expect(isResolved(await client.getPost(created.id))).toBe(false);

    const withMessage = await client.resolvePost(created.id, { content_markdown: 'Shipped' });
    expect(isResolved(withMessage)).toBe(true);
  });

  it('creates a thread and messages, and lists them', async () => {
    const members = (await client.listMembers({ roles: ['member', 'admin'] })).data.filter(
      (m) => !m.is_deactivated,
    );
    const memberIds = members.slice(0, 2).map((m) => m.id);
    const thread = await client.createThread({ member_ids: memberIds, title: 'Launch' });
    expect(thread.title).toBe('Launch');

    const sent: string[] = [];
    for (let i = 0; i < 12; i++) {
      const message = await client.createMessage(thread.id, { content_markdown: `message ${i}` });
      expect(message.content).toContain(`message ${i}`);
      expect(message.thread_id).toBe(thread.id);
      sent.push(message.id);
    }
    const reply = await client.createMessage(thread.id, { content_markdown: 'reply', parent_id: sent[0] });
    expect(reply.parent_id).toBe(sent[0]);
    sent.push(reply.id);

    const first = await client.listMessages(thread.id, { limit: 5, sort: 'created_at', direction: 'asc' });
    expect(first.data).toHaveLength(5);
    expect(first.next_cursor).toBeTruthy();

    const all = await collect(
      client.allMessages(thread.id, { limit: 5, sort: 'created_at', direction: 'asc' }),
    );
    expect(ids(all).sort()).toEqual([...sent].sort());
  });

  it('walks every page of the four lists', async () => {
    const channels = await collect(client.allChannels({ limit: 3 }));
    const channelTotal = (await client.listChannels()).total_count;
    expect(channels).toHaveLength(channelTotal ?? channels.length);
    expect(new Set(ids(channels)).size).toBe(channels.length);

    const members = await collect(client.allMembers({ limit: 2 }));
    expect(new Set(ids(members)).size).toBe(members.length);
    expect(members.length).toBe((await client.listMembers()).data.length);

    const posts = await collect(client.allPosts({ limit: 5 }));
    expect(new Set(ids(posts)).size).toBe(posts.length);
    expect(posts.length).toBe((await client.listPosts({ limit: 1 })).total_count ?? posts.length);
  });

  it('walks more than three pages forward with next_cursor, then back with prev_cursor', async () => {
    const channel = (await client.listChannels({ sort: 'name', direction: 'desc' })).data[0]!;
    const created: string[] = [];
    for (let i = 0; i < 17; i++) {
      created.push((await client.createPost({ content_markdown: `walk ${i}`, channel_id: channel.id })).id);
    }
    const query = { channelId: channel.id, limit: 5, sort: 'published_at', direction: 'asc' } as const;

    const forward: Page<Post>[] = [];
    let page = await client.listPosts(query);
    forward.push(page);
    while (page.next_cursor) {
      page = await client.listPosts({ ...query, after: page.next_cursor });
      forward.push(page);
      expect(forward.length).toBeLessThan(100);
    }
    expect(forward.length).toBeGreaterThan(3);
    for (const p of forward.slice(0, -1)) expect(p.data).toHaveLength(5);
    const forwardIds = forward.flatMap((p) => ids(p.data));
    expect(new Set(forwardIds).size).toBe(forwardIds.length);
    for (const id of created) expect(forwardIds).toContain(id);

    // The service answers prev_cursor only to a request that used `before`, and its cursors are
    // item ids: the walk back starts before the first post of the last page.
    const backward: Page<Post>[] = [];
    const last = forward[forward.length - 1]!;
    let back: Page<Post> = { ...last, prev_cursor: last.data[0]?.id ?? null };
    while (back.prev_cursor) {
      back = await client.listPosts({ ...query, before: back.prev_cursor });
      backward.push(back);
      expect(backward.length).toBeLessThan(100);
    }
    expect(backward.map((p) => ids(p.data))).toEqual(
      forward
        .slice(0, -1)
        .reverse()
        .map((p) => ids(p.data)),
    );

    const walked = await collect(
      client.allPosts({ channelId: channel.id, limit: 5, sort: 'published_at', direction: 'asc' }),
    );
    expect(ids(walked)).toEqual(forwardIds);
  });

  it('sends JSON content type on every request and the query names of the wire table', async () => {
    const general = (await client.listChannels({ name: 'general' })).data[0]!.id;
    const before = emulator.received.length;
    await client.listMembers({ search: 'a', roles: ['admin', 'guest'], limit: 3 });
    await client.unresolvePost((await client.createPost({ content_markdown: 'x', channel_id: general })).id);
    const mine = emulator.received.slice(before);
    expect(mine.map((r) => r.method)).toEqual(['GET', 'POST', 'DELETE']);
    expect(mine[0]?.query).toMatchObject({ q: 'a', roles: 'admin,guest', limit: '3' });
    for (const r of emulator.received) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers.authorization).not.toContain(emulator.apiKey);
    }
  });

  it('classifies the emulator’s refusals', async () => {
    expect(await failure(client.getPost('does-not-exist'))).toMatchObject({
      kind: 'permanent',
      reason: 'notFound',
    });
    const stranger = createCollabClient({ baseUrl: emulator.url, apiKey: 'not-a-key-of-this-emulator' });
    try {
      expect(await failure(stranger.listChannels())).toMatchObject({
        kind: 'permanent',
        reason: 'unauthorized',
      });
    } finally {
      await stranger.close();
    }
  });
});
