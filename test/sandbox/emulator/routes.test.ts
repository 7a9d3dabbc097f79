import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ChannelPage,
  Comment,
  MemberPage,
  Message,
  MessagePage,
  Post,
  PostPage,
  Thread,
} from '../../../src/collab/schemas.ts';
import { APP_NAME, type Emulator, ORG_SLUG, startEmulator } from '../../../src/sandbox/emulator/index.ts';
import { channelIdByName, del, firstThreadId, get, manualClock, memberIdByEmail, post } from './helpers.ts';

describe('emulator routes (spec §4), happy paths', () => {
  let emu: Emulator;
  const clock = manualClock();

  beforeEach(async () => {
    emu = await startEmulator({ now: clock.now });
  });
  afterEach(() => emu.close());

  it('POST /v2/posts creates a post authored by the app, its content converted to HTML', async () => {
    const answer = await post(emu, '/v2/posts', {
      channel_id: channelIdByName(emu, 'general'),
      content_markdown: 'Ship it <now> & "then"\n\nSecond',
    });
    expect(answer.status).toBe(201);
    const created = Post.parse(answer.json);
    expect(created.id).toMatch(/^[0-9a-z]{12}$/);
    expect(created.title).toBe('');
    expect(created.channel?.name).toBe('general');
    expect(created.author).toMatchObject({ name: APP_NAME, type: 'app' });
    expect(created.author?.id).toBe(emu.org().app.id);
    expect(created.author?.avatar_urls?.xxl).toContain(emu.url);
    expect(created.content).toBe('<p>Ship it &lt;now&gt; &amp; &quot;then&quot;</p>\n<p>Second</p>');
    expect(created.url).toBe(`${emu.url}/${ORG_SLUG}/posts/${created.id}`);
    expect(created.comments_count).toBe(0);
    expect(created.resolution).toBeNull();
    expect(created.created_at).toBe(clock.now().toISOString());
    expect(created.last_activity_at).toBe(created.created_at);
    expect(emu.org().posts.get(created.id)?.content_markdown).toBe('Ship it <now> & "then"\n\nSecond');
  });

  it('POST /v2/posts honours channel_id and title', async () => {
    const channelId = channelIdByName(emu, 'design');
    const answer = await post(emu, '/v2/posts', {
      content_markdown: 'x',
      channel_id: channelId,
      title: 'Hi',
    });
    expect(answer.status).toBe(201);
    expect(Post.parse(answer.json)).toMatchObject({
      title: 'Hi',
      channel: { id: channelId, name: 'design' },
    });
  });

  it('GET /v2/posts lists posts in the envelope', async () => {
    const answer = await get(emu, '/v2/posts');
    expect(answer.status).toBe(200);
    const page = PostPage.parse(answer.json);
    // The seeded post of the private channel is not listed.
    expect(page.total_count).toBe(emu.org().posts.size - 1);
    expect(page.data).toHaveLength(emu.org().posts.size - 1);
    expect(page.next_cursor).toBeNull();
    expect(page.prev_cursor).toBeNull();
  });

  it('GET /v2/posts/{id} answers one post', async () => {
    const [first] = emu.org().posts.keys();
    const answer = await get(emu, `/v2/posts/${first}`);
    expect(answer.status).toBe(200);
    expect(Post.parse(answer.json).id).toBe(first);
  });

  it('POST and DELETE /v2/posts/{post_id}/resolution resolve (201) and unresolve (200)', async () => {
    const created = Post.parse(
      (await post(emu, '/v2/posts', { channel_id: channelIdByName(emu, 'general'), content_markdown: 'q' }))
        .json,
    );
    const comment = Comment.parse(
      (await post(emu, `/v2/posts/${created.id}/comments`, { content_markdown: 'a' })).json,
    );
    clock.tick();
    const resolved = await post(emu, `/v2/posts/${created.id}/resolution`, {
      content_markdown: 'Done <b>',
      comment_id: comment.id,
    });
    expect(resolved.status).toBe(201);
    const body = Post.parse(resolved.json);
    expect(body.resolution).toMatchObject({
      resolved_at: clock.now().toISOString(),
      resolved_html: '<p>Done &lt;b&gt;</p>',
      resolved_by: { type: 'app', name: APP_NAME },
      resolved_comment: { id: comment.id, content: '<p>a</p>' },
    });
    const unresolved = await del(emu, `/v2/posts/${created.id}/resolution`);
    expect(unresolved.status).toBe(200);
    expect(Post.parse(unresolved.json).resolution).toBeNull();
  });

  it('POST /v2/posts/{post_id}/comments creates a comment (201)', async () => {
    const [postId] = emu.org().posts.keys();
    const answer = await post(emu, `/v2/posts/${postId}/comments`, { content_markdown: 'Nice' });
    expect(answer.status).toBe(201);
    const comment = Comment.parse(answer.json);
    expect(comment).toMatchObject({
      content: '<p>Nice</p>',
      parent_id: null,
      subject_id: postId,
      subject_type: 'post',
      replies_count: 0,
      author: { type: 'app' },
    });
    expect(comment.id).toMatch(/^[0-9a-z]{12}$/);
  });

  it('POST /v2/threads creates a thread (201)', async () => {
    const ada = memberIdByEmail(emu, 'ada@example.com');
    const answer = await post(emu, '/v2/threads', { member_ids: [ada], title: 'Ping' });
    expect(answer.status).toBe(201);
    const thread = Thread.parse(answer.json);
    expect(thread).toMatchObject({ title: 'Ping', members_count: 1, group: true, creator: { type: 'app' } });
    expect(thread.last_message_at).toBeNull();
    expect(emu.org().threads.get(thread.id)?.member_ids).toEqual([ada]);
  });

  it('POST and GET /v2/threads/{thread_id}/messages create (201) and list messages', async () => {
    const threadId = firstThreadId(emu);
    const answer = await post(emu, `/v2/threads/${threadId}/messages`, { content_markdown: 'On it' });
    expect(answer.status).toBe(201);
    const message = Message.parse(answer.json);
    expect(message).toMatchObject({ thread_id: threadId, content: '<p>On it</p>', parent_id: null });
    expect(message.updated_at).toBe(message.created_at);
    const list = MessagePage.parse((await get(emu, `/v2/threads/${threadId}/messages`)).json);
    expect(list.data.map((m) => m.id)).toContain(message.id);
    expect(list.total_count).toBe(4);
  });

  it('GET /v2/members lists members with users', async () => {
    const page = MemberPage.parse((await get(emu, '/v2/members')).json);
    // The deactivated member is not listed.
    expect(page.total_count).toBe(emu.org().members.size - 1);
    const ada = page.data.find((member) => member.user.email === 'ada@example.com');
    expect(ada).toMatchObject({
      role: 'admin',
      is_deactivated: false,
      user: { display_name: 'Ada Lovelace' },
    });
    expect(ada?.id).not.toBe(ada?.user.id);
  });

  it('GET /v2/channels lists channels', async () => {
    const page = ChannelPage.parse(
      (await get(emu, '/v2/channels', { query: { sort: 'name', direction: 'asc' } })).json,
    );
    expect(page.data.map((channel) => channel.name)).toEqual([
      'announcements',
      'design',
      'engineering',
      'general',
      'marketing',
      'product',
      'random',
      'support',
    ]);
    expect(page.data[0]?.id).toMatch(/^[0-9a-z]{12}$/);
  });

  it('records received requests with redacted authorization and route names', async () => {
    const [postId] = emu.org().posts.keys();
    await get(emu, `/v2/posts/${postId}`, { query: { x: 1 } });
    await post(emu, '/v2/posts', { channel_id: channelIdByName(emu, 'general'), content_markdown: 'r' });
    expect(emu.received.map((request) => request.route)).toEqual(['GET /v2/posts/{id}', 'POST /v2/posts']);
    const [first, second] = emu.received;
    expect(first).toMatchObject({
      method: 'GET',
      path: `/v2/posts/${postId}`,
      query: { x: '1' },
      body: undefined,
    });
    expect(first?.headers.authorization).toBe('Bearer ***');
    expect(JSON.stringify(emu.received)).not.toContain(emu.apiKey);
    expect(second?.body).toEqual({ channel_id: channelIdByName(emu, 'general'), content_markdown: 'r' });
    expect(second?.at).toBe(clock.now().getTime());
  });
});
