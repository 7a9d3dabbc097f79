import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import type { Channel, Member, Message, Page, Post } from '../../src/collab/schemas.ts';
import { ACTIONS } from '../../src/render/ids.ts';
import { channelList, memberList, messageList, postList } from '../../src/render/lists.ts';
import { allTexts, assertMessageWithinLimits } from '../support/blockKit.ts';

function post(i: number, extra: Partial<Post> = {}): Post {
  return {
    id: `p-${i}`,
    title: `Post number ${i}`,
    url: `https://collab.test/posts/${i}`,
    comments_count: i,
    channel: { id: 'c-1', name: 'engineering' },
    author: { id: 'u-1', name: 'Ada' },
    last_activity_at: '2024-05-01T14:03:00Z',
    ...extra,
  };
}

function page<T>(data: T[], total?: number): Page<T> {
  return { data, total_count: total ?? null, next_cursor: null, prev_cursor: null };
}

type Buttonish = { action_id?: string; value?: string; text: { text: string } };
function buttons(blocks: KnownBlock[]): Buttonish[] {
  return blocks.flatMap((b) => (b.type === 'actions' ? (b.elements as unknown as Buttonish[]) : []));
}

const noPaging = { title: 'Posts in #engineering', paging: {} };

describe('postList', () => {
  it('shows one compact section per post with state, title link, channel, author and comments', () => {
    const result = postList(page([post(1), post(2, { resolution: { resolved_at: null } })], 57), noPaging);
    const texts = allTexts(result.blocks);
    expect(result.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Posts in #engineering' } });
    expect(texts).toContain('57 in all');
    expect(texts).toContainEqual(
      expect.stringContaining(
        ':large_blue_circle: *<https://collab.test/posts/1|Post number 1>*\n#engineering · Ada · 1 comment',
      ),
    );
    expect(texts).toContainEqual(
      expect.stringContaining(':white_check_mark: *<https://collab.test/posts/2|Post number 2>*'),
    );
    expect(result.blocks.filter((b) => b.type === 'section')).toHaveLength(2);
    expect(buttons(result.blocks)).toEqual([]);
    expect(result.text).toBe('Posts in #engineering: 2 posts');
    assertMessageWithinLimits(result);
  });

  it('has Previous and Next buttons with the given values, and only those given', () => {
    const both = postList(page([post(1)]), { title: 'Posts', paging: { prev: 'pg-1', next: 'pg-3' } });
    expect(buttons(both.blocks).map((b) => [b.action_id, b.value])).toEqual([
      [ACTIONS.pagePrev, 'pg-1'],
      [ACTIONS.pageNext, 'pg-3'],
    ]);
    const next = postList(page([post(1)]), { title: 'Posts', paging: { next: 'pg-2' } });
    expect(buttons(next.blocks).map((b) => b.action_id)).toEqual([ACTIONS.pageNext]);
    assertMessageWithinLimits(both);
  });

  it('says so kindly when the page is empty', () => {
    const result = postList(page([]), noPaging);
    const texts = allTexts(result.blocks);
    expect(texts).toContain('No posts match.');
    expect(texts.some((t) => t.includes('unresolved'))).toBe(true);
    assertMessageWithinLimits(result);
  });

  it('keeps all 50 items of a full page within 50 blocks', () => {
    const posts = Array.from({ length: 50 }, (_, i) => post(i, { title: `${'Long title '.repeat(20)}${i}` }));
    const result = postList(page(posts, 500), { title: 'All posts', paging: { prev: 'a', next: 'b' } });
    assertMessageWithinLimits(result);
    expect(result.blocks.length).toBeLessThanOrEqual(50);
    const joined = allTexts(result.blocks).join('\n');
    for (let i = 0; i < 50; i++) expect(joined).toContain(`/posts/${i}|`);
  });

  it('escapes what comes from the service', () => {
    const result = postList(page([post(1, { title: '<!channel> & co', url: null })]), noPaging);
    expect(allTexts(result.blocks).join('\n')).toContain('*&lt;!channel&gt; &amp; co*');
    assertMessageWithinLimits(result);
  });
});

describe('channelList', () => {
  it('shows names and ids', () => {
    const channels: Channel[] = [
      { id: 'c-1', name: 'engineering' },
      { id: 'c-2', name: 'R&D' },
    ];
    const result = channelList(page(channels), { title: 'Channels', paging: {} });
    const texts = allTexts(result.blocks);
    expect(texts).toContain('*#engineering*  `c-1`');
    expect(texts).toContain('*#R&amp;D*  `c-2`');
    assertMessageWithinLimits(result);
  });

  it('folds 50 channels into the block budget and handles empty pages', () => {
    const channels = Array.from({ length: 50 }, (_, i) => ({ id: `c-${i}`, name: `chan-${i}` }));
    const result = channelList(page(channels), { title: 'Channels', paging: { next: 'n' } });
    assertMessageWithinLimits(result);
    const joined = allTexts(result.blocks).join('\n');
    for (let i = 0; i < 50; i++) expect(joined).toContain(`\`c-${i}\``);
    expect(allTexts(channelList(page([]), { title: 'Channels', paging: {} }).blocks)).toContain(
      'No channels match.',
    );
  });
});

describe('memberList', () => {
  it('shows display name, email, role and deactivation', () => {
    const members: Member[] = [
      {
        id: 'm-1',
        role: 'admin',
        is_deactivated: false,
        user: { id: 'u-1', display_name: 'Ada', email: 'ada@x.test' },
      },
      {
        id: 'm-2',
        role: 'guest',
        is_deactivated: true,
        user: { id: 'u-2', display_name: null, email: 'g@x.test' },
      },
      { id: 'm-3', user: { id: 'u-3' } },
    ];
    const texts = allTexts(memberList(page(members, 3), { title: 'Members', paging: {} }).blocks);
    expect(texts).toContain('*Ada*\nada@x.test · admin');
    expect(texts).toContain('*g@x.test* _(deactivated)_\ng@x.test · guest');
    expect(texts).toContain('*u-3*');
    expect(texts).toContain('3 in all');
  });
});

describe('messageList', () => {
  it('shows author, time and content, with the thread', () => {
    const messages: Message[] = [
      {
        id: 'ms-1',
        author: { id: 'u-1', name: 'Ada' },
        created_at: '2024-05-01T14:03:00Z',
        content: '<p>Hi <b>all</b></p>',
      },
      { id: 'ms-2', author: null, created_at: 'garbage', content: null },
    ];
    const result = messageList(page(messages), {
      title: 'Thread',
      paging: {},
      thread: { id: 't-1', title: 'Release', members_count: 2 },
    });
    const texts = allTexts(result.blocks);
    expect(texts).toContain('*Release*  ·  thread `t-1`  ·  2 members');
    expect(texts).toContainEqual(expect.stringMatching(/^\*Ada\* · <!date\^1714572180\^.*>\nHi \*all\*$/));
    expect(texts).toContain('*someone* · garbage\n_(no content)_');
    assertMessageWithinLimits(result);
  });

  it('folds 50 long messages within the limits', () => {
    const messages = Array.from({ length: 50 }, (_, i) => ({
      id: `m-${i}`,
      author: { id: 'u', name: `Author ${i}` },
      content: `message ${i} ${'blah '.repeat(2000)}`,
    }));
    const result = messageList(page(messages), { title: 'Thread', paging: { prev: 'p', next: 'n' } });
    assertMessageWithinLimits(result);
    const joined = allTexts(result.blocks).join('\n');
    for (let i = 0; i < 50; i++) expect(joined).toContain(`*Author ${i}*`);
  });
});
