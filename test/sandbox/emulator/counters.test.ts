import { describe, expect, it } from 'vitest';
import { Comment, Post, Thread } from '../../../src/collab/schemas.ts';
import type { Emulator } from '../../../src/sandbox/emulator/index.ts';
import {
  channelIdByName,
  del,
  firstThreadId,
  get,
  type ManualClock,
  memberIdByEmail,
  post,
  useClockedEmulator,
} from './helpers.ts';

describe('emulator state: counters, resolution, threads', () => {
  let emu: Emulator;
  let clock: ManualClock;
  useClockedEmulator((started, startedClock) => {
    emu = started;
    clock = startedClock;
  });

  async function newPost(): Promise<string> {
    return Post.parse(
      (
        await post(emu, '/v2/posts', {
          channel_id: channelIdByName(emu, 'general'),
          content_markdown: 'topic',
        })
      ).json,
    ).id;
  }
  async function getPost(id: string) {
    return Post.parse((await get(emu, `/v2/posts/${id}`)).json);
  }

  it('keeps comments_count, replies_count and last_activity_at true', async () => {
    const postId = await newPost();
    clock.tick();
    const top = Comment.parse(
      (await post(emu, `/v2/posts/${postId}/comments`, { content_markdown: 'a' })).json,
    );
    clock.tick();
    const reply = Comment.parse(
      (await post(emu, `/v2/posts/${postId}/comments`, { content_markdown: 'b', parent_id: top.id })).json,
    );
    expect(reply.parent_id).toBe(top.id);
    clock.tick();
    // Replies nest one level only: a reply to a reply is refused and changes nothing.
    const nested = await post(emu, `/v2/posts/${postId}/comments`, {
      content_markdown: 'c',
      parent_id: reply.id,
    });
    expect(nested.status).toBe(422);
    await post(emu, `/v2/posts/${postId}/comments`, { content_markdown: 'd', parent_id: top.id });
    const current = await getPost(postId);
    expect(current.comments_count).toBe(3);
    expect(current.last_activity_at).toBe(clock.now().toISOString());
    expect(current.created_at).not.toBe(current.last_activity_at);

    const resolved = await post(emu, `/v2/posts/${postId}/resolution`, { comment_id: top.id });
    const resolvedComment = Post.parse(resolved.json).resolution?.resolved_comment;
    expect(resolvedComment).toMatchObject({ id: top.id, replies_count: 2 });
  });

  it('seeded counters are true too', async () => {
    const org = emu.org();
    const hidden = [...org.channels.values()]
      .filter((channel) => channel.private)
      .map((channel) => channel.id);
    for (const record of [...org.posts.values()].filter((p) => !hidden.includes(p.channel_id))) {
      const wire = await getPost(record.id);
      expect(wire.comments_count).toBe(
        [...org.comments.values()].filter((c) => c.post_id === record.id).length,
      );
    }
    const replies = [...org.comments.values()].filter((comment) => comment.parent_id !== null);
    expect(replies.length).toBeGreaterThan(0);
  });

  it('resolve leaves last_activity_at alone; re-resolve replaces the resolution with 201', async () => {
    const postId = await newPost();
    const published = clock.now().toISOString();
    clock.tick();
    const first = await post(emu, `/v2/posts/${postId}/resolution`, { content_markdown: 'first' });
    expect(first.status).toBe(201);
    expect(Post.parse(first.json).last_activity_at).toBe(published);
    clock.tick();
    const again = await post(emu, `/v2/posts/${postId}/resolution`, { content_markdown: 'second *take*' });
    expect(again.status).toBe(201);
    const resolution = Post.parse(again.json).resolution;
    expect(resolution).toMatchObject({
      resolved_html: '<p>second <em>take</em></p>',
      resolved_comment: null,
    });
    expect(resolution?.resolved_at).toBe(clock.now().toISOString());
    expect(emu.org().posts.get(postId)?.resolution?.resolved_html).toBe('<p>second <em>take</em></p>');
  });

  it('unresolve answers 200 with resolution null, also for an unresolved post', async () => {
    const postId = await newPost();
    const published = clock.now().toISOString();
    await post(emu, `/v2/posts/${postId}/resolution`, {});
    clock.tick();
    const first = await del(emu, `/v2/posts/${postId}/resolution`);
    expect(first.status).toBe(200);
    expect(Post.parse(first.json)).toMatchObject({
      resolution: null,
      last_activity_at: published,
    });
    const again = await del(emu, `/v2/posts/${postId}/resolution`);
    expect(again.status).toBe(200);
    expect(Post.parse(again.json).resolution).toBeNull();
  });

  it('seeds one resolved post with a resolving comment', async () => {
    const resolved = [...emu.org().posts.values()].filter((record) => record.resolution !== null);
    expect(resolved).toHaveLength(1);
    const wire = await getPost(resolved[0]?.id ?? '');
    expect(wire.resolution?.resolved_by?.type).toBe('member');
    expect(wire.resolution?.resolved_comment?.subject_id).toBe(wire.id);
  });

  it('drops unknown, deactivated and duplicate member ids on thread create (fewer members)', async () => {
    const ada = memberIdByEmail(emu, 'ada@example.com');
    const grace = memberIdByEmail(emu, 'grace@example.com');
    const charles = memberIdByEmail(emu, 'charles@example.com');
    const answer = await post(emu, '/v2/threads', { member_ids: [ada, 'mbr_ghost', charles, grace, ada] });
    expect(answer.status).toBe(201);
    const thread = Thread.parse(answer.json);
    expect(thread.members_count).toBe(2);
    expect(thread.group).toBe(true);
    expect(emu.org().threads.get(thread.id)?.member_ids).toEqual([ada, grace]);
  });

  it('keeps thread last_message_at and updated_at true', async () => {
    const threadId = firstThreadId(emu);
    clock.tick(60_000);
    const message = await post(emu, `/v2/threads/${threadId}/messages`, { content_markdown: 'latest' });
    expect(message.status).toBe(201);
    const record = emu.org().threads.get(threadId);
    expect(record?.last_message_at).toBe(clock.now().toISOString());
    expect(record?.updated_at).toBe(clock.now().toISOString());
    const ada = memberIdByEmail(emu, 'ada@example.com');
    const created = Thread.parse((await post(emu, '/v2/threads', { member_ids: [ada] })).json);
    clock.tick();
    await post(emu, `/v2/threads/${created.id}/messages`, { content_markdown: 'hi' });
    const thread = emu.org().threads.get(created.id);
    expect(thread?.last_message_at).toBe(clock.now().toISOString());
    expect(thread?.created_at).not.toBe(thread?.updated_at);
  });
});
