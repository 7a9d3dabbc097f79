import { describe, expect, it } from 'vitest';
import { PostPage } from '../../../src/collab/schemas.ts';
import type { Emulator } from '../../../src/sandbox/emulator/index.ts';
import {
  channelIdByName,
  firstThreadId,
  get,
  type ManualClock,
  memberIdByEmail,
  useClockedEmulator,
} from './helpers.ts';

describe('emulator act-as helpers', () => {
  let emu: Emulator;
  let clock: ManualClock;
  useClockedEmulator((started, startedClock) => {
    emu = started;
    clock = startedClock;
  });

  it('creates posts and comments as a person, visible over HTTP', async () => {
    const ada = memberIdByEmail(emu, 'ada@example.com');
    const actor = emu.org().actAs(ada);
    clock.tick();
    const created = actor.createPost({
      content_markdown: 'From Ada',
      channel_id: channelIdByName(emu, 'design'),
    });
    expect(created.author).toMatchObject({ id: ada, name: 'Ada Lovelace', type: 'member' });
    expect(created.channel.name).toBe('design');
    const comment = emu.org().actAs(memberIdByEmail(emu, 'alan@example.com')).createComment(created.id, {
      content_markdown: 'Reply',
    });
    expect(comment.author.name).toBe('Alan Turing');
    const listed = PostPage.parse(
      (await get(emu, '/v2/posts', { query: { sort: 'last_activity_at' } })).json,
    );
    expect(listed.data[0]).toMatchObject({ id: created.id, comments_count: 1, author: { type: 'member' } });
  });

  it('resolves and unresolves as a person', () => {
    const grace = memberIdByEmail(emu, 'grace@example.com');
    const actor = emu.org().actAs(grace);
    const [postId = ''] = emu.org().posts.keys();
    const comment = actor.createComment(postId, { content_markdown: 'Answer' });
    const resolved = actor.resolvePost(postId, { comment_id: comment.id, content_markdown: 'Thanks' });
    expect(resolved.resolution).toMatchObject({
      resolved_by: { id: grace, type: 'member' },
      resolved_comment: { id: comment.id },
      resolved_html: '<p>Thanks</p>',
    });
    expect(actor.unresolvePost(postId).resolution).toBeNull();
    expect(emu.org().posts.get(postId)?.resolution).toBeNull();
  });

  it('writes messages in a thread the person is in, creates threads', () => {
    const threadId = firstThreadId(emu);
    const grace = memberIdByEmail(emu, 'grace@example.com');
    clock.tick();
    const message = emu.org().actAs(grace).createMessage(threadId, { content_markdown: 'Yes' });
    expect(message).toMatchObject({ thread_id: threadId, author: { id: grace, type: 'member' } });
    expect(emu.org().threads.get(threadId)?.last_message_at).toBe(clock.now().toISOString());

    const hedy = memberIdByEmail(emu, 'hedy@example.com');
    expect(() => emu.org().actAs(hedy).createMessage(threadId, { content_markdown: 'Hi' })).toThrow(
      expect.objectContaining({ status: 403 }),
    );
    const thread = emu
      .org()
      .actAs(hedy)
      .createThread({ member_ids: [grace] });
    expect(thread).toMatchObject({ members_count: 2, group: true, creator: { id: hedy, type: 'member' } });
  });

  it('refuses unknown and deactivated people, and invalid input like the routes', () => {
    expect(() => emu.org().actAs('mbr_nobody')).toThrow(expect.objectContaining({ status: 404 }));
    const charles = memberIdByEmail(emu, 'charles@example.com');
    expect(() => emu.org().actAs(charles)).toThrow(expect.objectContaining({ status: 403 }));
    const actor = emu.org().actAs(memberIdByEmail(emu, 'ada@example.com'));
    expect(() => actor.createPost({ content_markdown: ' ' })).toThrow(
      expect.objectContaining({ status: 422 }),
    );
    expect(() => actor.createPost({ content_markdown: 'x', channel_id: 'chn_nope' })).toThrow(
      expect.objectContaining({ status: 404 }),
    );
    expect(() => actor.createComment('pst_nope', { content_markdown: 'x' })).toThrow(
      expect.objectContaining({ status: 404 }),
    );
  });
});
