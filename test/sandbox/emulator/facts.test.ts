/**
 * SERVICE-FACTS.md, fact by fact: how the real service fills the spec's "not shown" places, and
 * the proof that the emulator behaves so. One row per fact, in the document's order; each row
 * runs against a fresh, seeded emulator on a manual clock, over real HTTP.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleApi } from '../../../src/sandbox/emulator/api.ts';
import {
  APP_NAME,
  DELETED_MESSAGE_HTML,
  type Emulator,
  ORG_SLUG,
  SEED_ARCHIVED_CHANNEL,
  SEED_CHANNELS,
  SEED_PRIVATE_CHANNEL,
  startEmulator,
} from '../../../src/sandbox/emulator/index.ts';
import {
  type Answer,
  call,
  channelIdByName,
  del,
  firstThreadId,
  get,
  type ManualClock,
  manualClock,
  memberIdByEmail,
  post,
} from './helpers.ts';

type Json = Record<string, unknown> & { [key: string]: unknown };

interface World {
  emu: Emulator;
  clock: ManualClock;
}

interface Fact {
  fact: string;
  check(world: World): Promise<void>;
}

const json = (answer: Answer): Json => answer.json as Json;
const data = (answer: Answer): Json[] => (answer.json as { data: Json[] }).data;
const general = (emu: Emulator) => channelIdByName(emu, 'general');

async function createPost(emu: Emulator, body: Record<string, unknown>): Promise<Json> {
  const answer = await post(emu, '/v2/posts', { channel_id: general(emu), ...body });
  expect(answer.status).toBe(201);
  return json(answer);
}

function expectError(answer: Answer, status: number, message?: string): void {
  expect(answer.status).toBe(status);
  const body = answer.json as { error: { code: unknown; message: unknown } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error.code === 'string' || body.error.code === null).toBe(true);
  expect(typeof body.error.message).toBe('string');
  if (message !== undefined) expect(body.error.message).toBe(message);
}

/** Every item of a list, following next_cursor. */
async function walk(
  emu: Emulator,
  path: string,
  query: Record<string, string | number> = {},
): Promise<Json[]> {
  const items: Json[] = [];
  let after: string | undefined;
  for (let i = 0; i < 100; i++) {
    const answer = await get(emu, path, { query: { ...query, ...(after ? { after } : {}) } });
    expect(answer.status).toBe(200);
    items.push(...data(answer));
    const next = json(answer).next_cursor;
    if (next === null) return items;
    after = String(next);
  }
  throw new Error('walk did not end');
}

const ids = (items: Json[]) => items.map((item) => item.id);
const sortedBy = (items: Json[], key: string, direction: 'asc' | 'desc') =>
  [...items].sort((a, b) => {
    const order = String(a[key]) < String(b[key]) ? -1 : String(a[key]) > String(b[key]) ? 1 : 0;
    const tie = String(a.id) < String(b.id) ? -1 : 1;
    return (direction === 'asc' ? 1 : -1) * (order || tie);
  });

const RESOURCES: Fact[] = [
  {
    fact: 'author type is only member or app; everything written with the key is authored by the app, resolutions included',
    async check({ emu }) {
      const created = await createPost(emu, { content_markdown: 'From the key' });
      expect(created.author).toMatchObject({ type: 'app', name: APP_NAME });
      const resolved = json(await post(emu, `/v2/posts/${created.id}/resolution`, {}));
      expect((resolved.resolution as Json).resolved_by).toMatchObject({ type: 'app' });
      const ada = emu.org().actAs(memberIdByEmail(emu, 'ada@example.com'));
      expect(ada.createComment(String(created.id), { content_markdown: 'x' }).author.type).toBe('member');
      const types = new Set((await walk(emu, '/v2/posts')).map((p) => (p.author as Json).type));
      expect([...types].every((type) => type === 'member' || type === 'app')).toBe(true);
    },
  },
  {
    fact: 'post title is never null: a leading heading, or a first paragraph only bold, else ""; it stays in content',
    async check({ emu }) {
      const heading = await createPost(emu, { content_markdown: '# Launch **day**\n\nDetails' });
      expect(heading.title).toBe('Launch day');
      expect(heading.content).toContain('<h1>Launch <strong>day</strong></h1>');
      const bold = await createPost(emu, { content_markdown: '**Thursday**\n\nChess at noon' });
      expect(bold.title).toBe('Thursday');
      expect(bold.content).toContain('<strong>Thursday</strong>');
      expect((await createPost(emu, { content_markdown: '**Thursday** chess' })).title).toBe('');
      expect((await createPost(emu, { content_markdown: 'plain words' })).title).toBe('');
      expect((await createPost(emu, { content_markdown: '# ignored', title: 'Sent' })).title).toBe('Sent');
      for (const listed of await walk(emu, '/v2/posts')) expect(typeof listed.title).toBe('string');
    },
  },
  {
    fact: 'content is HTML converted from the markdown written, with mention spans; a converter down stores <p>markdown</p>; default ""',
    async check({ emu }) {
      const ada = memberIdByEmail(emu, 'ada@example.com');
      const created = await createPost(emu, {
        content_markdown: `Ask @Ada Lovelace or <@${ada}> about [docs](https://example.com/d) & **Thursday** <b>`,
      });
      const span = `<span data-type="mention" data-id="${ada}" data-label="Ada Lovelace">@Ada Lovelace</span>`;
      expect(created.content).toBe(
        `<p>Ask ${span} or ${span} about <a href="https://example.com/d">docs</a> &amp; <strong>Thursday</strong> &lt;b&gt;</p>`,
      );
      const comment = json(
        await post(emu, `/v2/posts/${created.id}/comments`, { content_markdown: '- [x] done' }),
      );
      expect(comment.content).toContain('checkbox');
      expect((await createPost(emu, { title: 'Only a title' })).content).toBe('');
      emu.org().converterDown = true;
      const raw = await createPost(emu, { content_markdown: '**raw** [x](https://x.example)' });
      expect(raw.content).toBe('<p>**raw** [x](https://x.example)</p>');
    },
  },
  {
    fact: 'resolution is null when unresolved; resolved_html is "" without a message; resolved_comment null when none chosen',
    async check({ emu }) {
      const created = await createPost(emu, { content_markdown: 'x' });
      expect(created.resolution).toBeNull();
      const resolved = json(await post(emu, `/v2/posts/${created.id}/resolution`, {}));
      expect(resolved.resolution).toMatchObject({ resolved_html: '', resolved_comment: null });
      const withMessage = json(
        await post(emu, `/v2/posts/${created.id}/resolution`, { content_markdown: 'Done **now**' }),
      );
      expect((withMessage.resolution as Json).resolved_html).toBe('<p>Done <strong>now</strong></p>');
    },
  },
  {
    fact: 'comment subject_type is "post" (lower case); parent_id null for a root comment; replies nest one level only',
    async check({ emu }) {
      const created = await createPost(emu, { content_markdown: 'x' });
      const root = json(await post(emu, `/v2/posts/${created.id}/comments`, { content_markdown: 'root' }));
      expect(root).toMatchObject({ subject_type: 'post', subject_id: created.id, parent_id: null });
      const reply = json(
        await post(emu, `/v2/posts/${created.id}/comments`, { content_markdown: 'r', parent_id: root.id }),
      );
      expect(reply.parent_id).toBe(root.id);
      const nested = await post(emu, `/v2/posts/${created.id}/comments`, {
        content_markdown: 'rr',
        parent_id: reply.id,
      });
      expectError(nested, 422);
    },
  },
  {
    fact: 'message author may be null (system messages); deleted messages are still listed with a placeholder',
    async check({ emu }) {
      const threadId = firstThreadId(emu);
      const system = emu.org().createMessage(null, threadId, { content_markdown: 'Ada joined' });
      const first = emu.org().messages.values().next().value;
      if (!first) throw new Error('no message');
      emu.org().deleteMessage(first.id);
      const listed = data(await get(emu, `/v2/threads/${threadId}/messages`));
      expect(listed.find((m) => m.id === system.id)?.author).toBeNull();
      expect(listed.find((m) => m.id === first.id)?.content).toBe(DELETED_MESSAGE_HTML);
    },
  },
  {
    fact: 'thread: group always true, last_message_at null at first, avatar_urls null, blank title computed, title over 80 → 422',
    async check({ emu }) {
      const [ada, grace, alan, katherine] = ['ada', 'grace', 'alan', 'katherine'].map((n) =>
        memberIdByEmail(emu, `${n}@example.com`),
      );
      const two = json(await post(emu, '/v2/threads', { member_ids: [ada, grace] }));
      expect(two).toMatchObject({ group: true, last_message_at: null, avatar_urls: null });
      expect(two.title).toBe('Ada Lovelace and Grace Hopper');
      const four = json(await post(emu, '/v2/threads', { member_ids: [ada, grace, alan, katherine] }));
      expect(four.title).toBe('Ada Lovelace and 3 others');
      expect(json(await post(emu, '/v2/threads', { member_ids: [ada], title: 'Named' })).title).toBe('Named');
      expectError(await post(emu, '/v2/threads', { member_ids: [ada], title: 'x'.repeat(81) }), 422);
      expect((await post(emu, '/v2/threads', { member_ids: [ada], title: 'x'.repeat(80) })).status).toBe(201);
    },
  },
  {
    fact: 'member id is the membership id (used in member_ids and mentions), not user.id; deactivated members are not listed',
    async check({ emu }) {
      const members = await walk(emu, '/v2/members');
      for (const member of members) expect(member.id).not.toBe((member.user as Json).id);
      expect(members.some((m) => m.is_deactivated === true)).toBe(false);
      expect(members.some((m) => (m.user as Json).email === 'charles@example.com')).toBe(false);
      expect(members).toHaveLength(emu.org().members.size - 1);
    },
  },
  {
    fact: 'channel: only id and name; archived channels are not listed',
    async check({ emu }) {
      const channels = await walk(emu, '/v2/channels');
      for (const channel of channels) expect(Object.keys(channel).sort()).toEqual(['id', 'name']);
      expect(channels.map((c) => c.name)).not.toContain(SEED_ARCHIVED_CHANNEL);
      expect(channels.map((c) => c.name).sort()).toEqual([...SEED_CHANNELS].sort());
    },
  },
  {
    fact: 'ids are 12 characters of 0-9a-z for every object',
    async check({ emu }) {
      const created = await createPost(emu, { content_markdown: 'x' });
      const comment = json(await post(emu, `/v2/posts/${created.id}/comments`, { content_markdown: 'c' }));
      const thread = json(
        await post(emu, '/v2/threads', { member_ids: [memberIdByEmail(emu, 'ada@example.com')] }),
      );
      const message = json(await post(emu, `/v2/threads/${thread.id}/messages`, { content_markdown: 'm' }));
      const members = await walk(emu, '/v2/members');
      const channels = await walk(emu, '/v2/channels');
      const all = [
        created.id,
        (created.author as Json).id,
        comment.id,
        thread.id,
        message.id,
        ...ids(members),
        ...members.map((m) => (m.user as Json).id),
        ...ids(channels),
      ];
      for (const id of all) expect(id).toMatch(/^[0-9a-z]{12}$/);
    },
  },
  {
    fact: 'post url is https://<host>/<organisation slug>/posts/<post id>',
    async check({ emu }) {
      const created = await createPost(emu, { content_markdown: 'x' });
      expect(created.url).toBe(`${emu.url}/${ORG_SLUG}/posts/${created.id}`);
    },
  },
];

const LISTS: Fact[] = [
  {
    fact: 'parameter names: after, before, limit, channel_id, sort, direction, q, roles, name',
    async check({ emu }) {
      const design = channelIdByName(emu, 'design');
      const posts = data(
        await get(emu, '/v2/posts', {
          query: { channel_id: design, limit: 1, sort: 'last_activity_at', direction: 'asc' },
        }),
      );
      expect(posts).toHaveLength(1);
      expect((posts[0]?.channel as Json | undefined)?.id).toBe(design);
      const page2 = await get(emu, '/v2/posts', {
        query: {
          limit: 2,
          after: String(posts[0]?.id),
          channel_id: design,
          sort: 'last_activity_at',
          direction: 'asc',
        },
      });
      expect(data(page2).map((p) => p.id)).not.toContain(posts[0]?.id);
      const back = await get(emu, '/v2/posts', {
        query: {
          limit: 1,
          before: String(data(page2)[0]?.id),
          channel_id: design,
          sort: 'last_activity_at',
          direction: 'asc',
        },
      });
      expect(ids(data(back))).toEqual([posts[0]?.id]);
      expect(
        data(await get(emu, '/v2/members', { query: { q: 'grace' } })).map((m) => (m.user as Json).email),
      ).toEqual(['grace@example.com']);
      expect(data(await get(emu, '/v2/members', { query: { roles: 'guest' } }))).toHaveLength(1);
      expect(data(await get(emu, '/v2/channels', { query: { name: 'engin' } })).map((c) => c.name)).toEqual([
        'engineering',
      ]);
    },
  },
  {
    fact: 'default order: posts published_at desc, messages created_at desc, members and channels created_at asc, ties on id',
    async check({ emu }) {
      const posts = await walk(emu, '/v2/posts');
      expect(ids(posts)).toEqual(ids(sortedBy(posts, 'created_at', 'desc')));
      const threadId = firstThreadId(emu);
      const messages = data(await get(emu, `/v2/threads/${threadId}/messages`));
      expect(ids(messages)).toEqual(ids(sortedBy(messages, 'created_at', 'desc')));
      const members = await walk(emu, '/v2/members');
      expect(ids(members)).toEqual(ids(sortedBy(members, 'created_at', 'asc')));
      const channels = await walk(emu, '/v2/channels');
      const created = new Map([...emu.org().channels.values()].map((c) => [c.id, c.created_at]));
      const withDates = channels.map((c) => ({ ...c, created_at: created.get(String(c.id)) }));
      expect(ids(channels)).toEqual(ids(sortedBy(withDates, 'created_at', 'asc')));
    },
  },
  {
    fact: 'next_cursor is the last item id when more follow, else null (the key is always there)',
    async check({ emu }) {
      const first = json(await get(emu, '/v2/posts', { query: { limit: 3 } }));
      const items = first.data as Json[];
      expect(first.next_cursor).toBe(items[2]?.id);
      const last = json(await get(emu, '/v2/channels', { query: { limit: 50 } }));
      expect('next_cursor' in last && last.next_cursor === null).toBe(true);
    },
  },
  {
    fact: 'prev_cursor is null unless the request used before',
    async check({ emu }) {
      const first = json(await get(emu, '/v2/posts', { query: { limit: 3 } }));
      const second = json(
        await get(emu, '/v2/posts', { query: { limit: 3, after: String(first.next_cursor) } }),
      );
      expect(first.prev_cursor).toBeNull();
      expect(second.prev_cursor).toBeNull();
      const third = json(
        await get(emu, '/v2/posts', { query: { limit: 3, after: String(second.next_cursor) } }),
      );
      const before = json(
        await get(emu, '/v2/posts', { query: { limit: 3, before: String((third.data as Json[])[0]?.id) } }),
      );
      expect(ids(before.data as Json[])).toEqual(ids(second.data as Json[]));
      expect(before.prev_cursor).toBe((second.data as Json[])[0]?.id);
    },
  },
  {
    fact: 'an unknown or deleted cursor is ignored: the first page comes back',
    async check({ emu }) {
      const first = data(await get(emu, '/v2/posts', { query: { limit: 4 } }));
      for (const cursor of ['zzzzzzzzzzzz', 'not-a-cursor']) {
        expect(ids(data(await get(emu, '/v2/posts', { query: { limit: 4, after: cursor } })))).toEqual(
          ids(first),
        );
        expect(ids(data(await get(emu, '/v2/posts', { query: { limit: 4, before: cursor } })))).toEqual(
          ids(first),
        );
      }
    },
  },
  {
    fact: 'limit over 50 → 422; 0, negative or not a number → 50',
    async check({ emu }) {
      const threadId = firstThreadId(emu);
      for (let i = 0; i < 60; i++) {
        emu.org().createMessage(emu.org().app, threadId, { content_markdown: `m${i}` });
      }
      expectError(await get(emu, `/v2/threads/${threadId}/messages`, { query: { limit: 51 } }), 422);
      for (const limit of ['0', '-3', 'abc']) {
        const answer = await get(emu, `/v2/threads/${threadId}/messages`, { query: { limit } });
        expect(answer.status).toBe(200);
        expect(data(answer)).toHaveLength(50);
      }
    },
  },
  {
    fact: 'total_count is the size of the whole filtered collection, not what remains',
    async check({ emu }) {
      const engineering = channelIdByName(emu, 'engineering');
      const all = await walk(emu, '/v2/posts', { channel_id: engineering });
      const first = json(await get(emu, '/v2/posts', { query: { channel_id: engineering, limit: 1 } }));
      const second = json(
        await get(emu, '/v2/posts', {
          query: { channel_id: engineering, limit: 1, after: String(first.next_cursor) },
        }),
      );
      expect(first.total_count).toBe(all.length);
      expect(second.total_count).toBe(all.length);
    },
  },
  {
    fact: 'invalid sort or direction → 422 (values are lower case only)',
    async check({ emu }) {
      const queries: Record<string, string>[] = [
        { sort: 'title' },
        { sort: 'PUBLISHED_AT' },
        { direction: 'up' },
        { direction: 'DESC' },
      ];
      for (const query of queries) {
        expectError(await get(emu, '/v2/posts', { query }), 422);
      }
      expectError(await get(emu, '/v2/channels', { query: { sort: 'members' } }), 422);
    },
  },
  {
    fact: 'members q matches username, name and email (substring); roles is split on commas',
    async check({ emu }) {
      const emails = async (query: Record<string, string>) =>
        data(await get(emu, '/v2/members', { query })).map((m) => (m.user as Json).email);
      expect(await emails({ q: 'Lovelace' })).toEqual(['ada@example.com']);
      expect(await emails({ q: 'katherine@' })).toEqual(['katherine@example.com']);
      emu.org().members.get(memberIdByEmail(emu, 'hedy@example.com'))!.username = 'inventor';
      expect(await emails({ q: 'invent' })).toEqual(['hedy@example.com']);
      expect((await emails({ roles: 'viewer,guest' })).sort()).toEqual(
        ['claude@example.com', 'emmy@example.com', 'hedy@example.com'].sort(),
      );
    },
  },
  {
    fact: 'channels name is a substring match',
    async check({ emu }) {
      const names = data(await get(emu, '/v2/channels', { query: { name: 'ar' } })).map((c) => c.name);
      expect(names.sort()).toEqual(SEED_CHANNELS.filter((n) => n.includes('ar')).sort());
    },
  },
];

const WRITES: Fact[] = [
  {
    fact: 'create post: blank channel_id → 422; unknown channel → 404; private channel → 403; no title and no content → 422',
    async check({ emu }) {
      expectError(await post(emu, '/v2/posts', { content_markdown: 'x' }), 422);
      expectError(await post(emu, '/v2/posts', { content_markdown: 'x', channel_id: '' }), 422);
      expectError(
        await post(emu, '/v2/posts', { content_markdown: 'x', channel_id: 'zzzzzzzzzzzz' }),
        404,
        'Record not found.',
      );
      const hidden = channelIdByName(emu, SEED_PRIVATE_CHANNEL);
      expectError(await post(emu, '/v2/posts', { content_markdown: 'x', channel_id: hidden }), 403);
      expectError(await post(emu, '/v2/posts', { channel_id: general(emu) }), 422);
      expectError(
        await post(emu, '/v2/posts', { channel_id: general(emu), content_markdown: '  ', title: ' ' }),
        422,
      );
    },
  },
  {
    fact: 'resolve/unresolve: no state guard (re-resolve 201 with a new resolved_at, unresolve an unresolved post 200); comment_id of another post → 404',
    async check({ emu, clock }) {
      const created = await createPost(emu, { content_markdown: 'x' });
      const first = await post(emu, `/v2/posts/${created.id}/resolution`, {});
      clock.tick(5_000);
      const again = await post(emu, `/v2/posts/${created.id}/resolution`, { content_markdown: 'again' });
      expect([first.status, again.status]).toEqual([201, 201]);
      expect((json(again).resolution as Json).resolved_at).not.toBe(
        (json(first).resolution as Json).resolved_at,
      );
      expect((await del(emu, `/v2/posts/${created.id}/resolution`)).status).toBe(200);
      const twice = await del(emu, `/v2/posts/${created.id}/resolution`);
      expect(twice.status).toBe(200);
      expect(json(twice).resolution).toBeNull();
      const other = await createPost(emu, { content_markdown: 'y' });
      const foreign = json(await post(emu, `/v2/posts/${other.id}/comments`, { content_markdown: 'c' }));
      expectError(await post(emu, `/v2/posts/${created.id}/resolution`, { comment_id: foreign.id }), 404);
    },
  },
  {
    fact: 'last_activity_at moves when a post is published and when a comment is created; resolving and unresolving do NOT move it',
    async check({ emu, clock }) {
      const created = await createPost(emu, { content_markdown: 'x' });
      expect(created.last_activity_at).toBe(created.created_at);
      clock.tick(60_000);
      await post(emu, `/v2/posts/${created.id}/resolution`, {});
      clock.tick(60_000);
      await del(emu, `/v2/posts/${created.id}/resolution`);
      expect(json(await get(emu, `/v2/posts/${created.id}`)).last_activity_at).toBe(created.created_at);
      clock.tick(60_000);
      await post(emu, `/v2/posts/${created.id}/comments`, { content_markdown: 'c' });
      expect(json(await get(emu, `/v2/posts/${created.id}`)).last_activity_at).toBe(
        clock.now().toISOString(),
      );
    },
  },
  {
    fact: 'create comment: unknown parent_id → 404; reply to a reply → 422; empty content → 422; comments_count counts replies',
    async check({ emu }) {
      const created = await createPost(emu, { content_markdown: 'x' });
      const path = `/v2/posts/${created.id}/comments`;
      expectError(await post(emu, path, { content_markdown: 'c', parent_id: 'zzzzzzzzzzzz' }), 404);
      expectError(await post(emu, path, { content_markdown: ' ' }), 422);
      const root = json(await post(emu, path, { content_markdown: 'root' }));
      const reply = json(await post(emu, path, { content_markdown: 'r', parent_id: root.id }));
      expectError(await post(emu, path, { content_markdown: 'rr', parent_id: reply.id }), 422);
      expect(json(await get(emu, `/v2/posts/${created.id}`)).comments_count).toBe(2);
    },
  },
  {
    fact: 'create thread: missing or empty member_ids → 400; ids that are not members are dropped silently',
    async check({ emu }) {
      expectError(await post(emu, '/v2/threads', {}), 400);
      expectError(await post(emu, '/v2/threads', { member_ids: [] }), 400);
      const ada = memberIdByEmail(emu, 'ada@example.com');
      const charles = memberIdByEmail(emu, 'charles@example.com');
      const answer = await post(emu, '/v2/threads', { member_ids: [ada, 'zzzzzzzzzzzz', charles] });
      expect(answer.status).toBe(201);
      expect(json(answer).members_count).toBe(1);
      const none = await post(emu, '/v2/threads', { member_ids: ['zzzzzzzzzzzz'] });
      expect(none.status).toBe(201);
    },
  },
  {
    fact: 'create message: unknown parent_id → 404; empty content → 422',
    async check({ emu }) {
      const path = `/v2/threads/${firstThreadId(emu)}/messages`;
      expectError(await post(emu, path, { content_markdown: 'm', parent_id: 'zzzzzzzzzzzz' }), 404);
      expectError(await post(emu, path, { content_markdown: '' }), 422);
    },
  },
  {
    fact: 'private channels are invisible to the key: their posts are left out of lists, GET /v2/posts/{id} answers 403',
    async check({ emu }) {
      const hidden = [...emu.org().posts.values()].find(
        (p) => p.channel_id === channelIdByName(emu, SEED_PRIVATE_CHANNEL),
      );
      if (!hidden) throw new Error('no seeded private post');
      expect(ids(await walk(emu, '/v2/posts'))).not.toContain(hidden.id);
      expect((await walk(emu, '/v2/channels')).map((c) => c.name)).not.toContain(SEED_PRIVATE_CHANNEL);
      expectError(await get(emu, `/v2/posts/${hidden.id}`), 403);
      expectError(await post(emu, `/v2/posts/${hidden.id}/resolution`, {}), 403);
    },
  },
];

const ERRORS: Fact[] = [
  {
    fact: 'error body is {"error": {"code", "message"}}: 401 "Invalid API key.", 404 "Record not found.", 400 invalid_params, 422 first message, 500',
    async check({ emu }) {
      expectError(await get(emu, '/v2/posts', { key: 'wrong' }), 401, 'Invalid API key.');
      expectError(await get(emu, '/v2/posts', { key: null }), 401, 'Invalid API key.');
      expectError(await get(emu, '/v2/posts/zzzzzzzzzzzz'), 404, 'Record not found.');
      const bad = await post(emu, '/v2/threads', {});
      expectError(bad, 400);
      expect((bad.json as { error: { code: string } }).error.code).toBe('invalid_params');
      expectError(await post(emu, '/v2/posts', { channel_id: general(emu) }), 422);
      const crash = handleApi(
        {
          lookup: {
            kind: 'found',
            match: {
              name: 'GET /v2/posts',
              params: {},
              handler: () => {
                throw new Error('boom');
              },
            },
          },
          query: new URLSearchParams(),
          headers: { authorization: `Bearer ${emu.apiKey}` },
          rawBody: Buffer.alloc(0),
        },
        (key) => (key === emu.apiKey ? emu.org() : undefined),
        emu.queryNames,
      );
      expect(crash).toMatchObject({
        status: 500,
        body: { error: { message: 'Something unexpected happened, please try again.' } },
      });
    },
  },
  {
    fact: 'rate limit: per client address for every organisation together; 429 with plain text "Retry later" and no Retry-After',
    async check({ clock }) {
      const limited = await startEmulator({
        now: clock.now,
        apiKeys: ['key_a', 'key_b'],
        rateLimit: { limit: 3, windowMs: 30_000 },
      });
      try {
        const statuses = [];
        for (const key of ['key_a', 'key_b', 'key_a']) {
          statuses.push((await get(limited, '/v2/channels', { key })).status);
        }
        expect(statuses).toEqual([200, 200, 200]);
        const refused = await get(limited, '/v2/channels', { key: 'key_b' });
        expect(refused.status).toBe(429);
        expect(refused.text.trim()).toBe('Retry later');
        expect(refused.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(refused.headers.get('retry-after')).toBeNull();
        clock.tick(30_000);
        expect((await get(limited, '/v2/channels', { key: 'key_a' })).status).toBe(200);
      } finally {
        await limited.close();
      }
    },
  },
  {
    fact: 'a blocked address gets 403 with a plain-text body',
    async check({ clock }) {
      const blocked = await startEmulator({
        now: clock.now,
        blockedAddresses: ['127.0.0.1', '::ffff:127.0.0.1'],
      });
      try {
        const answer = await call(blocked, 'GET', '/v2/posts');
        expect(answer.status).toBe(403);
        expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(answer.json).toBeUndefined();
      } finally {
        await blocked.close();
      }
    },
  },
];

describe.each([
  ['Resources as they come back', RESOURCES],
  ['Lists', LISTS],
  ['Writes and state', WRITES],
  ['Errors and limits', ERRORS],
])('SERVICE-FACTS.md — %s', (_section, facts) => {
  let world: World | undefined;
  beforeEach(async () => {
    const clock = manualClock();
    world = { emu: await startEmulator({ now: clock.now }), clock };
  });
  afterEach(() => world?.emu.close());

  it.each(facts.map((fact) => [fact.fact, fact] as const))('%s', async (_name, fact) => {
    if (!world) throw new Error('no emulator');
    await fact.check(world);
  });
});
