import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('emulator authentication and validation', () => {
  let emu: Emulator;
  let postId: string;
  let otherPostId: string;

  beforeAll(async () => {
    emu = await startEmulator();
    [postId = '', otherPostId = ''] = emu.org().posts.keys();
  });
  afterAll(() => emu.close());

  describe('auth (401)', () => {
    it.each([
      ['no Authorization header', { key: null }],
      ['an unknown key', { key: 'not-a-key' }],
      ['another scheme', { key: null, headers: { authorization: 'Basic dXNlcjpwYXNz' } }],
    ] as const)('rejects %s', async (_label, options) => {
      const answer = await get(emu, '/v2/posts', options);
      expect(answer.status).toBe(401);
      expect(answer.json).toEqual({ error: { code: 'unauthorized', message: 'Invalid API key.' } });
    });

    it('rejects before any write', async () => {
      const before = emu.org().posts.size;
      const answer = await post(
        emu,
        '/v2/posts',
        { channel_id: channelIdByName(emu, 'general'), content_markdown: 'x' },
        { key: 'nope' },
      );
      expect(answer.status).toBe(401);
      expect(emu.org().posts.size).toBe(before);
    });
  });

  describe('transport', () => {
    it('415 for a body without Content-Type: application/json', async () => {
      const answer = await call(emu, 'POST', '/v2/posts', {
        rawBody: JSON.stringify({ content_markdown: 'x' }),
        contentType: 'text/plain',
      });
      expect(answer.status).toBe(415);
      expect(messageOf(answer)).toMatch(/application\/json/);
    });

    it('accepts application/json with a charset', async () => {
      const answer = await call(emu, 'POST', '/v2/posts', {
        rawBody: JSON.stringify({ content_markdown: 'x', channel_id: channelIdByName(emu, 'general') }),
        contentType: 'application/json; charset=utf-8',
      });
      expect(answer.status).toBe(201);
    });

    it('400 for malformed JSON', async () => {
      const answer = await call(emu, 'POST', '/v2/posts', { rawBody: '{"content_markdown":' });
      expect(answer.status).toBe(400);
      expect(messageOf(answer)).toBe('Malformed JSON body');
    });

    it('404 for an unknown route, 405 for a known path with another method', async () => {
      expect((await get(emu, '/v2/nothing')).status).toBe(404);
      const answer = await del(emu, '/v2/posts');
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST, GET');
    });
  });

  describe('bodies (422) and path ids (404)', () => {
    it.each([
      ['missing content_markdown and title', {}],
      ['blank content_markdown', { content_markdown: '   ' }],
      ['a non-string title', { content_markdown: 'x', title: 3 }],
      ['an array body', [1, 2]],
    ])('POST /v2/posts: 422 for %s', async (_label, body) => {
      const answer = await post(
        emu,
        '/v2/posts',
        Array.isArray(body) ? body : { channel_id: channelIdByName(emu, 'general'), ...body },
      );
      expect(answer.status).toBe(422);
      expect(messageOf(answer)).not.toBe('');
    });

    it('POST /v2/posts: 404 for an unknown channel_id', async () => {
      const answer = await post(emu, '/v2/posts', { content_markdown: 'x', channel_id: 'chn_nope' });
      expect(answer.status).toBe(404);
      expect(messageOf(answer)).toBe('Record not found.');
    });

    it('404 for unknown post ids in paths', async () => {
      expect((await get(emu, '/v2/posts/pst_nope')).status).toBe(404);
      expect((await post(emu, '/v2/posts/pst_nope/comments', { content_markdown: 'x' })).status).toBe(404);
      expect((await post(emu, '/v2/posts/pst_nope/resolution', {})).status).toBe(404);
      expect((await del(emu, '/v2/posts/pst_nope/resolution')).status).toBe(404);
    });

    it('404 for unknown thread ids in paths', async () => {
      expect((await get(emu, '/v2/threads/thr_nope/messages')).status).toBe(404);
      expect((await post(emu, '/v2/threads/thr_nope/messages', { content_markdown: 'x' })).status).toBe(404);
    });

    it('comments: 422 without content, 404 with a parent from another post', async () => {
      expect((await post(emu, `/v2/posts/${postId}/comments`, {})).status).toBe(422);
      const other = await post(emu, `/v2/posts/${otherPostId}/comments`, { content_markdown: 'other' });
      const parentId = (other.json as { id: string }).id;
      const answer = await post(emu, `/v2/posts/${postId}/comments`, {
        content_markdown: 'x',
        parent_id: parentId,
      });
      expect(answer.status).toBe(404);
      expect(messageOf(answer)).toBe('Record not found.');
    });

    it('resolution: 404 for a comment_id of another post; an empty body is accepted', async () => {
      const other = await post(emu, `/v2/posts/${otherPostId}/comments`, { content_markdown: 'other' });
      const commentId = (other.json as { id: string }).id;
      const answer = await post(emu, `/v2/posts/${postId}/resolution`, { comment_id: commentId });
      expect(answer.status).toBe(404);
      expect(emu.org().posts.get(postId)?.resolution).toBeNull();
      const bare = await call(emu, 'POST', `/v2/posts/${postId}/resolution`);
      expect(bare.status).toBe(201);
      expect((bare.json as { resolution: { resolved_html: unknown } }).resolution.resolved_html).toBe('');
    });

    it.each([
      ['missing member_ids', { title: 't' }],
      ['empty member_ids', { member_ids: [] }],
      ['member_ids not an array', { member_ids: 'mbr_x' }],
    ])('threads: 400 for %s', async (_label, body) => {
      const before = emu.org().threads.size;
      expect((await post(emu, '/v2/threads', body)).status).toBe(400);
      expect(emu.org().threads.size).toBe(before);
    });

    it('threads: ids of unknown or deactivated members are dropped, the thread is made', async () => {
      const charles = memberIdByEmail(emu, 'charles@example.com');
      const answer = await post(emu, '/v2/threads', { member_ids: [charles, 'mbr_nope'] });
      expect(answer.status).toBe(201);
      expect((answer.json as { members_count: number }).members_count).toBe(0);
    });

    it('messages: 422 without content, 404 with a parent from another thread', async () => {
      const threadId = firstThreadId(emu);
      expect((await post(emu, `/v2/threads/${threadId}/messages`, { content_markdown: '' })).status).toBe(
        422,
      );
      const ada = memberIdByEmail(emu, 'ada@example.com');
      const other = await post(emu, '/v2/threads', { member_ids: [ada] });
      const otherId = (other.json as { id: string }).id;
      const message = await post(emu, `/v2/threads/${otherId}/messages`, { content_markdown: 'hi' });
      const answer = await post(emu, `/v2/threads/${threadId}/messages`, {
        content_markdown: 'x',
        parent_id: (message.json as { id: string }).id,
      });
      expect(answer.status).toBe(404);
    });
  });

  describe('list queries (422, 404)', () => {
    it.each([
      ['limit 51', '/v2/posts', { limit: 51 }],
      ['an unknown sort key', '/v2/posts', { sort: 'title' }],
      ['a sort key of another list', '/v2/members', { sort: 'name' }],
      ['an unknown direction', '/v2/channels', { direction: 'up' }],
      ['an unknown role', '/v2/members', { roles: 'admin,owner' }],
    ])('422 for %s', async (_label, path, query) => {
      const answer = await get(emu, path, { query });
      expect(answer.status).toBe(422);
      expect(messageOf(answer)).not.toBe('');
    });

    it.each([
      ['limit 0', '/v2/posts', { limit: 0 }],
      ['limit not a number', '/v2/members', { limit: 'many' }],
      ['limit empty', '/v2/channels', { limit: '' }],
    ])('%s is read as 50', async (_label, path, query) => {
      expect((await get(emu, path, { query })).status).toBe(200);
    });

    it('404 for an unknown channel filter', async () => {
      expect((await get(emu, '/v2/posts', { query: { channel_id: 'chn_nope' } })).status).toBe(404);
    });

    it('accepts the maximum page size of 50', async () => {
      expect((await get(emu, '/v2/posts', { query: { limit: 50 } })).status).toBe(200);
    });

    it('messages list: 422 for an unknown sort key', async () => {
      const threadId = firstThreadId(emu);
      expect(
        (await get(emu, `/v2/threads/${threadId}/messages`, { query: { sort: 'updated_at' } })).status,
      ).toBe(422);
    });

    it('a known channel filter answers 200', async () => {
      const channelId = channelIdByName(emu, 'random');
      expect((await get(emu, '/v2/posts', { query: { channel_id: channelId } })).status).toBe(200);
    });
  });
});
