import { describe, expect, it } from 'vitest';
import { ChannelPage, MemberPage, MessagePage, PostPage } from '../../../src/collab/schemas.ts';
import { DEFAULT_QUERY_NAMES } from '../../../src/collab/wire.ts';
import { type Emulator, startEmulator } from '../../../src/sandbox/emulator/index.ts';
import {
  channelIdByName,
  firstThreadId,
  get,
  type ManualClock,
  post,
  useClockedEmulator,
} from './helpers.ts';

type Query = Record<string, string | number>;

interface Walk {
  pages: string[][];
  total: number | null | undefined;
}

/** Follows next_cursor from the first page to the end. */
async function walkForward(emu: Emulator, path: string, query: Query): Promise<Walk> {
  const pages: string[][] = [];
  let cursor: string | null | undefined;
  let total: number | null | undefined;
  do {
    const answer = await get(emu, path, {
      query: cursor ? { ...query, [DEFAULT_QUERY_NAMES.after]: cursor } : query,
    });
    expect(answer.status).toBe(200);
    const page = PostPage.parse(answer.json);
    if (pages.length === 0) expect(page.prev_cursor).toBeNull();
    else expect(page.prev_cursor).toEqual(expect.any(String));
    pages.push(page.data.map((item) => item.id));
    total = page.total_count;
    cursor = page.next_cursor;
    expect(pages.length).toBeLessThan(50);
  } while (cursor);
  return { pages, total };
}

/** From the last page, follows prev_cursor back to the start; pages in walking order. */
async function walkBackward(
  emu: Emulator,
  path: string,
  query: Query,
  fromLastPage: string[],
): Promise<string[][]> {
  let forward = await get(emu, path, { query });
  // Find the prev_cursor of the last page by walking forward again to it.
  let page = PostPage.parse(forward.json);
  while (page.next_cursor) {
    forward = await get(emu, path, { query: { ...query, [DEFAULT_QUERY_NAMES.after]: page.next_cursor } });
    page = PostPage.parse(forward.json);
  }
  expect(page.data.map((item) => item.id)).toEqual(fromLastPage);
  const pages: string[][] = [];
  let cursor = page.prev_cursor;
  while (cursor) {
    const answer = await get(emu, path, { query: { ...query, [DEFAULT_QUERY_NAMES.before]: cursor } });
    const previous = PostPage.parse(answer.json);
    pages.push(previous.data.map((item) => item.id));
    cursor = previous.prev_cursor;
    expect(pages.length).toBeLessThan(50);
  }
  return pages;
}

describe('emulator lists: pagination, sorts, filters', () => {
  let emu: Emulator;
  let clock: ManualClock;
  useClockedEmulator((started, startedClock) => {
    emu = started;
    clock = startedClock;
  });

  /** Adds posts, some sharing one timestamp so ties must break by id. */
  async function addPosts(count: number): Promise<void> {
    for (let index = 0; index < count; index += 1) {
      if (index % 3 === 0) clock.tick();
      const answer = await post(emu, '/v2/posts', { content_markdown: `post ${index}` });
      expect(answer.status).toBe(201);
    }
  }

  function expectedPostOrder(key: 'last_activity_at' | 'created_at', direction: 'asc' | 'desc'): string[] {
    const sign = direction === 'asc' ? 1 : -1;
    return [...emu.org().posts.values()]
      .sort((a, b) => {
        const byKey = Date.parse(a[key]) - Date.parse(b[key]);
        return sign * (byKey !== 0 ? byKey : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
      })
      .map((item) => item.id);
  }

  it.each([
    ['last_activity_at', 'desc', 'last_activity_at'],
    ['published_at', 'asc', 'created_at'],
  ] as const)(
    'walks posts by %s %s with limit 5 forward and back, each id once, in order',
    async (sort, direction, field) => {
      await addPosts(8);
      const query = { limit: 5, sort, direction };
      const forward = await walkForward(emu, '/v2/posts', query);
      const ids = forward.pages.flat();
      expect(forward.total).toBe(emu.org().posts.size);
      expect(forward.pages.length).toBeGreaterThan(3);
      expect(forward.pages.slice(0, -1).every((page) => page.length === 5)).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(expectedPostOrder(field, direction));

      const lastPage = forward.pages.at(-1) ?? [];
      const backward = await walkBackward(emu, '/v2/posts', query, lastPage);
      expect([...backward].reverse().concat([lastPage]).flat()).toEqual(ids);
      expect(backward.at(-1)).toEqual(forward.pages[0]);
    },
  );

  it('a page after an insert neither repeats nor skips already listed posts (keyset cursors)', async () => {
    const query = { limit: 5, sort: 'published_at', direction: 'asc' };
    const first = PostPage.parse((await get(emu, '/v2/posts', { query })).json);
    clock.tick();
    await post(emu, '/v2/posts', { content_markdown: 'late' });
    const second = PostPage.parse(
      (await get(emu, '/v2/posts', { query: { ...query, after: first.next_cursor ?? '' } })).json,
    );
    const expected = expectedPostOrder('created_at', 'asc');
    expect([...first.data, ...second.data].map((item) => item.id)).toEqual(expected.slice(0, 10));
  });

  it('an unknown or garbage cursor answers page 1 (documented quirk)', async () => {
    const query = { limit: 5, sort: 'published_at', direction: 'desc' };
    const firstPage = PostPage.parse((await get(emu, '/v2/posts', { query })).json);
    const channels = ChannelPage.parse((await get(emu, '/v2/channels', { query: { limit: 2 } })).json);
    const otherSort = PostPage.parse(
      (await get(emu, '/v2/posts', { query: { ...query, sort: 'last_activity_at' } })).json,
    );
    for (const cursor of [
      'garbage',
      'eyJ2IjoxfQ',
      '',
      channels.next_cursor ?? '',
      otherSort.next_cursor ?? '',
    ]) {
      for (const name of [DEFAULT_QUERY_NAMES.after, DEFAULT_QUERY_NAMES.before]) {
        const page = PostPage.parse(
          (await get(emu, '/v2/posts', { query: { ...query, [name]: cursor } })).json,
        );
        expect(page.data.map((item) => item.id)).toEqual(firstPage.data.map((item) => item.id));
        expect(page.prev_cursor).toBeNull();
      }
    }
  });

  it('walks messages both ways with a small page', async () => {
    const threadId = firstThreadId(emu);
    for (let index = 0; index < 10; index += 1) {
      clock.tick();
      await post(emu, `/v2/threads/${threadId}/messages`, { content_markdown: `m${index}` });
    }
    const path = `/v2/threads/${threadId}/messages`;
    const query = { limit: 4, sort: 'created_at', direction: 'asc' };
    const forward = await walkForward(emu, path, query);
    const expected = [...emu.org().messages.values()]
      .filter((message) => message.thread_id === threadId)
      .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))
      .map((message) => message.id);
    expect(forward.pages.flat()).toEqual(expected);
    expect(forward.total).toBe(13);
    const backward = await walkBackward(emu, path, query, forward.pages.at(-1) ?? []);
    expect(backward.flat()).toHaveLength(expected.length - (forward.pages.at(-1)?.length ?? 0));
    const page = MessagePage.parse((await get(emu, path, { query: { direction: 'desc', limit: 1 } })).json);
    expect(page.data[0]?.id).toBe(expected.at(-1));
  });

  it('default sorts: newest first by creation (the emulator’s documented choice)', async () => {
    const posts = PostPage.parse((await get(emu, '/v2/posts')).json);
    expect(posts.data.map((item) => item.id)).toEqual(expectedPostOrder('created_at', 'desc'));
    const channels = ChannelPage.parse((await get(emu, '/v2/channels')).json);
    expect(channels.data.map((channel) => channel.name)).toEqual([
      'marketing',
      'product',
      'announcements',
      'random',
      'support',
      'design',
      'engineering',
      'general',
    ]);
  });

  it('sorts members by created_at and last_seen_at', async () => {
    const members = [...emu.org().members.values()];
    const by = (key: 'created_at' | 'last_seen_at') =>
      [...members].sort((a, b) => Date.parse(a[key]) - Date.parse(b[key])).map((member) => member.id);
    const createdAsc = MemberPage.parse(
      (await get(emu, '/v2/members', { query: { sort: 'created_at', direction: 'asc' } })).json,
    );
    expect(createdAsc.data.map((member) => member.id)).toEqual(by('created_at'));
    const seenDesc = MemberPage.parse(
      (await get(emu, '/v2/members', { query: { sort: 'last_seen_at', direction: 'desc' } })).json,
    );
    expect(seenDesc.data.map((member) => member.id)).toEqual(by('last_seen_at').reverse());
    expect(seenDesc.data[0]?.user.email).toBe('ada@example.com');
  });

  it('sorts channels by last_activity_at, which follows new posts', async () => {
    const query = { sort: 'last_activity_at', direction: 'desc' };
    const before = ChannelPage.parse((await get(emu, '/v2/channels', { query })).json);
    expect(before.data[0]?.name).toBe('marketing');
    clock.tick();
    await post(emu, '/v2/posts', { content_markdown: 'x', channel_id: channelIdByName(emu, 'design') });
    const after = ChannelPage.parse((await get(emu, '/v2/channels', { query })).json);
    expect(after.data[0]?.name).toBe('design');
    const asc = ChannelPage.parse(
      (await get(emu, '/v2/channels', { query: { sort: 'last_activity_at', direction: 'asc' } })).json,
    );
    expect(asc.data.map((channel) => channel.id)).toEqual(after.data.map((channel) => channel.id).reverse());
  });

  it('pages channels with a small limit', async () => {
    const forward = await walkForward(emu, '/v2/channels', { limit: 3, sort: 'name', direction: 'asc' });
    expect(forward.pages.map((page) => page.length)).toEqual([3, 3, 2]);
    expect(forward.total).toBe(8);
  });

  it('filters posts by channel', async () => {
    const engineering = channelIdByName(emu, 'engineering');
    const page = PostPage.parse((await get(emu, '/v2/posts', { query: { channel_id: engineering } })).json);
    expect(page.data.length).toBe(3);
    expect(page.total_count).toBe(3);
    expect(page.data.every((item) => item.channel?.id === engineering)).toBe(true);
  });

  it('filters channels by name, case-insensitive substring', async () => {
    const page = ChannelPage.parse((await get(emu, '/v2/channels', { query: { name: 'ENG' } })).json);
    expect(page.data.map((channel) => channel.name)).toEqual(['engineering']);
    expect(page.total_count).toBe(1);
    const none = ChannelPage.parse((await get(emu, '/v2/channels', { query: { name: 'zzz' } })).json);
    expect(none).toMatchObject({ data: [], total_count: 0, next_cursor: null, prev_cursor: null });
  });

  it('filters members by search (name or email) and roles', async () => {
    const byName = MemberPage.parse((await get(emu, '/v2/members', { query: { q: 'LOVE' } })).json);
    expect(byName.data.map((member) => member.user.email)).toEqual(['ada@example.com']);
    const byEmail = MemberPage.parse((await get(emu, '/v2/members', { query: { q: 'grace@' } })).json);
    expect(byEmail.data.map((member) => member.user.display_name)).toEqual(['Grace Hopper']);
    const roles = MemberPage.parse(
      (
        await get(emu, '/v2/members', {
          query: { roles: 'admin,guest', sort: 'created_at', direction: 'asc' },
        })
      ).json,
    );
    expect(roles.data.map((member) => member.role).sort()).toEqual(['admin', 'admin', 'guest']);
    const combined = MemberPage.parse(
      (await get(emu, '/v2/members', { query: { roles: 'viewer', q: 'hedy' } })).json,
    );
    expect(combined.data.map((member) => member.user.email)).toEqual(['hedy@example.com']);
    const all = MemberPage.parse((await get(emu, '/v2/members')).json);
    expect(all.data.some((member) => member.is_deactivated)).toBe(true);
    expect(new Set(all.data.map((member) => member.role))).toEqual(
      new Set(['admin', 'member', 'viewer', 'guest']),
    );
  });

  it('takes query parameter names from an override', async () => {
    const custom = await startEmulator({
      queryNames: { pageSize: 'per_page', after: 'cursor', search: 'search' },
    });
    try {
      const page = MemberPage.parse(
        (await get(custom, '/v2/members', { query: { per_page: 2, limit: 1 } })).json,
      );
      expect(page.data).toHaveLength(2);
      const next = MemberPage.parse(
        (await get(custom, '/v2/members', { query: { per_page: 2, cursor: page.next_cursor ?? '' } })).json,
      );
      expect(next.data.map((member) => member.id)).not.toContain(page.data[0]?.id);
      const found = MemberPage.parse((await get(custom, '/v2/members', { query: { search: 'emmy' } })).json);
      expect(found.data).toHaveLength(1);
      expect((await get(custom, '/v2/members', { query: { per_page: 99 } })).status).toBe(400);
      expect(custom.queryNames.pageSize).toBe('per_page');
    } finally {
      await custom.close();
    }
  });
});
