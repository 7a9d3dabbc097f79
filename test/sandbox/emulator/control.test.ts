import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrgSnapshot, ReceivedRequest } from '../../../src/sandbox/emulator/index.ts';
import { type Emulator, startEmulator } from '../../../src/sandbox/emulator/index.ts';
import {
  call,
  channelIdByName,
  del,
  firstThreadId,
  get,
  memberIdByEmail,
  messageOf,
  post,
} from './helpers.ts';

const KEY_B = 'test-key-second-org';

describe('emulator control API (/_emulator/)', () => {
  let emu: Emulator;

  beforeEach(async () => {
    emu = await startEmulator({ apiKeys: ['test-key-first-org', KEY_B] });
  });
  afterEach(() => emu.close());

  // The control API needs no key.
  const control = { key: null };

  it('GET /_emulator describes the emulator', async () => {
    const answer = await get(emu, '/_emulator', control);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ organizations: 2, queryNames: { pageSize: 'limit' } });
    expect((answer.json as { routes: string[] }).routes).toHaveLength(11);
  });

  it('GET /_emulator/state answers the first organization, or ?key=', async () => {
    await post(
      emu,
      '/v2/posts',
      { channel_id: channelIdByName(emu, 'general', KEY_B), content_markdown: 'in B' },
      { key: KEY_B },
    );
    const first = (await get(emu, '/_emulator/state', control)).json as OrgSnapshot;
    const second = (await get(emu, '/_emulator/state', { ...control, query: { key: KEY_B } }))
      .json as OrgSnapshot;
    expect(first.posts.length + 1).toBe(second.posts.length);
    expect(second.posts.at(-1)).toMatchObject({ content_markdown: 'in B', author: { type: 'app' } });
    expect(first.members.length).toBeGreaterThan(0);
    expect((await get(emu, '/_emulator/state', { ...control, query: { key: 'nope' } })).status).toBe(404);
  });

  it('GET /_emulator/requests lists API requests (not control ones), filterable by route', async () => {
    await get(emu, '/v2/channels');
    await post(emu, '/v2/posts', { channel_id: channelIdByName(emu, 'general'), content_markdown: 'x' });
    await get(emu, '/_emulator/state', control);
    const all = (await get(emu, '/_emulator/requests', control)).json as ReceivedRequest[];
    expect(all.map((request) => request.route)).toEqual(['GET /v2/channels', 'POST /v2/posts']);
    expect(all[0]?.headers.authorization).toBe('Bearer ***');
    const filtered = (
      await get(emu, '/_emulator/requests', { ...control, query: { route: 'POST /v2/posts' } })
    ).json as ReceivedRequest[];
    expect(filtered).toHaveLength(1);
    expect((await del(emu, '/_emulator/requests', control)).status).toBe(200);
    expect(emu.received).toEqual([]);
  });

  it('POST/GET/DELETE /_emulator/faults manage rules, with times "Infinity" over JSON', async () => {
    const added = await post(
      emu,
      '/_emulator/faults',
      { route: 'GET /v2/members', status: 503, times: 'Infinity' },
      control,
    );
    expect(added.status).toBe(201);
    const { id } = added.json as { id: string };
    expect((await get(emu, '/v2/members')).status).toBe(503);
    expect((await get(emu, '/v2/members')).status).toBe(503);
    const listed = (await get(emu, '/_emulator/faults', control)).json as { rules: { id: string }[] };
    expect(listed.rules.map((rule) => rule.id)).toEqual([id]);
    expect((await del(emu, `/_emulator/faults/${id}`, control)).status).toBe(200);
    expect((await del(emu, `/_emulator/faults/${id}`, control)).status).toBe(404);
    expect((await get(emu, '/v2/members')).status).toBe(200);

    await post(emu, '/_emulator/faults', { status: 500 }, control);
    expect((await del(emu, '/_emulator/faults', control)).status).toBe(200);
    expect(emu.faults.list()).toEqual([]);
    const invalid = await post(emu, '/_emulator/faults', { status: 500, tiems: 3 }, control);
    expect(invalid.status).toBe(400);
    expect(messageOf(invalid)).toContain('tiems');
  });

  it('POST /_emulator/latency sets a standing latency', async () => {
    const answer = await post(emu, '/_emulator/latency', { ms: 200, route: 'GET /v2/channels' }, control);
    expect(answer.status).toBe(200);
    await expect(get(emu, '/v2/channels', { signal: AbortSignal.timeout(50) })).rejects.toThrow();
    await post(emu, '/_emulator/latency', { ms: 0, route: 'GET /v2/channels' }, control);
    expect(emu.faults.latencies()).toEqual({});
  });

  it('POST /_emulator/reset reseeds and clears', async () => {
    await post(emu, '/v2/posts', {
      channel_id: channelIdByName(emu, 'general'),
      content_markdown: 'gone soon',
    });
    emu.faults.add({ status: 500 });
    const before = emu.org().posts.size;
    expect((await post(emu, '/_emulator/reset', {}, control)).status).toBe(200);
    expect(emu.org().posts.size).toBe(before - 1);
    expect(emu.faults.list()).toEqual([]);
    expect(emu.received).toEqual([]);
  });

  it('POST /_emulator/act acts as a person (object and positional args)', async () => {
    const ada = memberIdByEmail(emu, 'ada@example.com');
    const created = await post(
      emu,
      '/_emulator/act',
      {
        as: ada,
        op: 'createPost',
        args: { content_markdown: 'hi', channel_id: channelIdByName(emu, 'general') },
      },
      control,
    );
    expect(created.status).toBe(201);
    const postId = (created.json as { id: string }).id;
    expect(created.json).toMatchObject({ author: { id: ada, type: 'member' } });

    const comment = await post(
      emu,
      '/_emulator/act',
      { as: ada, op: 'createComment', args: [postId, { content_markdown: 'c' }] },
      control,
    );
    expect(comment.status).toBe(201);
    const resolved = await post(
      emu,
      '/_emulator/act',
      { as: ada, op: 'resolvePost', args: { post_id: postId } },
      control,
    );
    expect(resolved.status).toBe(201);
    expect(emu.org().posts.get(postId)?.resolution?.resolved_by.id).toBe(ada);
    const unresolved = await post(
      emu,
      '/_emulator/act',
      { as: ada, op: 'unresolvePost', args: [postId] },
      control,
    );
    expect(unresolved.status).toBe(200);
    const message = await post(
      emu,
      '/_emulator/act',
      { as: ada, op: 'createMessage', args: { thread_id: firstThreadId(emu), content_markdown: 'm' } },
      control,
    );
    expect(message.status).toBe(201);

    const inB = await post(
      emu,
      '/_emulator/act',
      {
        key: KEY_B,
        as: memberIdByEmail(emu, 'ada@example.com', KEY_B),
        op: 'createPost',
        args: { content_markdown: 'b', channel_id: channelIdByName(emu, 'general', KEY_B) },
      },
      control,
    );
    expect(inB.status).toBe(201);
    expect(emu.org(KEY_B).posts.has((inB.json as { id: string }).id)).toBe(true);
  });

  it('POST /_emulator/act reports errors with statuses', async () => {
    const ada = memberIdByEmail(emu, 'ada@example.com');
    expect((await post(emu, '/_emulator/act', { as: ada, op: 'explode' }, control)).status).toBe(400);
    expect(
      (await post(emu, '/_emulator/act', { as: 'mbr_nobody', op: 'createPost', args: {} }, control)).status,
    ).toBe(404);
    expect((await post(emu, '/_emulator/act', { as: ada, op: 'createPost', args: {} }, control)).status).toBe(
      422,
    );
    expect(
      (await post(emu, '/_emulator/act', { as: ada, op: 'createComment', args: {} }, control)).status,
    ).toBe(400);
    expect((await call(emu, 'POST', '/_emulator/act', { ...control, rawBody: '{' })).status).toBe(400);
    expect((await get(emu, '/_emulator/nothing', control)).status).toBe(404);
  });
});
