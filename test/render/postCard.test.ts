import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import type { Post } from '../../src/collab/schemas.ts';
import { ACTIONS } from '../../src/render/ids.ts';
import {
  CARD_EXCERPT_MAX,
  cardActionValue,
  cardVersion,
  parseCardActionValue,
  postCard,
} from '../../src/render/postCard.ts';
import { allTexts, assertMessageWithinLimits } from '../support/blockKit.ts';

const ada = { id: 'u-1', name: 'Ada Lovelace', type: null };

function openPost(overrides: Partial<Post> = {}): Post {
  return {
    id: 'p-42',
    title: 'Ship 2.3',
    created_at: '2024-05-01T14:03:00Z',
    last_activity_at: '2024-05-02T09:00:00Z',
    url: 'https://collab.test/posts/42',
    content: '<p>Release notes are <b>in the doc</b>.</p>',
    comments_count: 3,
    channel: { id: 'c-1', name: 'engineering' },
    author: ada,
    ...overrides,
  };
}

function resolvedPost(overrides: Partial<Post> = {}): Post {
  return openPost({
    resolution: {
      resolved_at: '2024-05-03T10:00:00Z',
      resolved_html: '<p>Shipped &amp; announced.</p>',
      resolved_by: { id: 'u-2', name: 'Grace Hopper' },
      resolved_comment: null,
    },
    ...overrides,
  });
}

type Buttonish = {
  type: string;
  action_id?: string;
  value?: string;
  url?: string;
  style?: string;
  text: { text: string };
};

function buttons(blocks: KnownBlock[]): Buttonish[] {
  return blocks.flatMap((b) => (b.type === 'actions' ? (b.elements as unknown as Buttonish[]) : []));
}

function mrkdwn(blocks: KnownBlock[]): string {
  return allTexts(blocks).join('\n');
}

describe('postCard: open post', () => {
  const card = postCard(openPost());

  it('shows the title as a bold link, channel, author, state, count and excerpt', () => {
    const text = mrkdwn(card.blocks);
    expect(text).toContain('*<https://collab.test/posts/42|Ship 2.3>*');
    expect(text).toContain('#engineering');
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain(':large_blue_circle: Open');
    expect(text).toContain('3 comments');
    expect(text).toContain('Release notes are *in the doc*.');
    expect(text).toContain('<!date^1714572180^{date_short_pretty} at {time}|2024-05-01 14:03 UTC>');
  });

  it('has Resolve (primary), Comment and Open buttons carrying the post and card version', () => {
    const [resolve, comment, open] = buttons(card.blocks);
    expect(resolve).toMatchObject({ action_id: ACTIONS.resolve, style: 'primary' });
    expect(comment).toMatchObject({ action_id: ACTIONS.comment });
    expect(open).toMatchObject({ action_id: ACTIONS.openPost, url: 'https://collab.test/posts/42' });
    expect(parseCardActionValue(resolve?.value ?? '')).toEqual({
      postId: 'p-42',
      version: cardVersion(openPost()),
    });
    expect(buttons(card.blocks).some((b) => b.action_id === ACTIONS.reopen)).toBe(false);
  });

  it('has a plain one-line fallback text', () => {
    expect(card.text).toBe('Open post: Ship 2.3 (#engineering, by Ada Lovelace)');
    assertMessageWithinLimits(card);
  });
});

describe('postCard: resolved post', () => {
  it('shows who resolved it, when, and the resolution message; offers Reopen', () => {
    const card = postCard(resolvedPost());
    const text = mrkdwn(card.blocks);
    expect(text).toContain(':white_check_mark: *Resolved* by *Grace Hopper* <!date^1714730400^');
    expect(text).toContain('>Shipped &amp; announced.');
    const actions = buttons(card.blocks).map((b) => b.action_id);
    expect(actions).toEqual([ACTIONS.reopen, ACTIONS.comment, ACTIONS.openPost]);
    expect(card.text.startsWith('Resolved post:')).toBe(true);
    assertMessageWithinLimits(card);
  });

  it("uses the resolving comment's content when there is no resolved_html", () => {
    const post = resolvedPost();
    post.resolution = {
      resolved_at: null,
      resolved_by: null,
      resolved_comment: { id: 'cm-1', content: 'Fixed in **#123**' },
    };
    const text = mrkdwn(postCard(post).blocks);
    expect(text).toContain(':white_check_mark: *Resolved*\n>Fixed in *#123*');
  });

  it.each([
    ['null', null],
    ['absent', undefined],
  ])('treats a %s resolution as open', (_label, resolution) => {
    const post = openPost();
    if (resolution === null) post.resolution = null;
    else delete post.resolution;
    const card = postCard(post);
    expect(buttons(card.blocks)[0]?.action_id).toBe(ACTIONS.resolve);
    expect(mrkdwn(card.blocks)).not.toContain('Resolved');
  });

  it('changes the card version when the state, activity or comments change', () => {
    const base = openPost();
    const versions = new Set([
      cardVersion(base),
      cardVersion(resolvedPost()),
      cardVersion(openPost({ last_activity_at: '2024-06-01T00:00:00Z' })),
      cardVersion(openPost({ comments_count: 4 })),
    ]);
    expect(versions.size).toBe(4);
    expect(cardVersion(openPost())).toBe(cardVersion(base));
    expect(cardVersion(base)).toMatch(/^[0-9a-f]{8}$/);
  });
});

describe('postCard: missing and odd fields', () => {
  it('uses the first words of the content when there is no title', () => {
    const card = postCard(
      openPost({ title: null, content: '<p>We should <i>really</i> rotate the keys this week</p>' }),
    );
    expect(mrkdwn(card.blocks)).toContain(
      '*<https://collab.test/posts/42|We should really rotate the keys this week>*',
    );
    expect(card.text).toContain('We should really rotate the keys');
  });

  it('shows a bold title without link and no Open button when there is no url (or an unsafe one)', () => {
    for (const url of [null, undefined, 'javascript:alert(1)', 'not a url']) {
      const card = postCard(openPost({ url }));
      expect(mrkdwn(card.blocks)).toContain('*Ship 2.3*');
      expect(buttons(card.blocks).map((b) => b.action_id)).toEqual([ACTIONS.resolve, ACTIONS.comment]);
      assertMessageWithinLimits(card);
    }
  });

  it('cuts huge content with a Read more link and stays within limits', () => {
    const content = `<p>${'word '.repeat(20_000)}</p>`;
    const card = postCard(openPost({ content, title: 'x'.repeat(5000) }));
    const excerpt = allTexts(card.blocks).find((t) => t.startsWith('word'));
    expect(excerpt).toBeDefined();
    expect(excerpt?.length).toBeLessThanOrEqual(CARD_EXCERPT_MAX);
    expect(excerpt).toMatch(/… <https:\/\/collab\.test\/posts\/42\|Read more>$/);
    assertMessageWithinLimits(card);
  });

  it('shows an unknown author type as it is, escaped; member and app add nothing to a name', () => {
    const card = postCard(openPost({ author: { id: 'b-1', name: 'Deploy <bot>', type: 'integration&co' } }));
    expect(mrkdwn(card.blocks)).toContain('Deploy &lt;bot&gt; (integration&amp;co)');
    for (const type of ['app', 'member']) {
      const known = postCard(openPost({ author: { id: 'b-2', name: 'Builder', type } }));
      expect(mrkdwn(known.blocks)).toContain('Builder');
      expect(mrkdwn(known.blocks)).not.toContain(`(${type})`);
    }
  });

  it('shows an unparseable timestamp raw and escaped, without crashing', () => {
    const card = postCard(openPost({ created_at: 'yesterday <!here>' }));
    const text = mrkdwn(card.blocks);
    expect(text).toContain('yesterday &lt;!here&gt;');
    expect(text).not.toContain('<!date');
    assertMessageWithinLimits(card);
  });

  it('renders a post with nothing but an id', () => {
    const card = postCard({ id: 'p-1' });
    expect(mrkdwn(card.blocks)).toContain('*Post p-1*');
    expect(card.text).toBe('Open post: Post p-1 (by someone)');
    assertMessageWithinLimits(card);
  });

  it('escapes everything from the service: titles, channels, names', () => {
    const card = postCard(
      openPost({
        title: 'Q&A <!channel> <@U1>',
        channel: { id: 'c', name: '<#C1|x>' },
        author: { id: 'a', name: '<!everyone>' },
        content: 'ping <!here> & <@U2>',
        url: null,
      }),
    );
    const text = mrkdwn(card.blocks);
    expect(text).toContain('*Q&amp;A &lt;!channel&gt; &lt;@U1&gt;*');
    expect(text).toContain('#&lt;#C1|x&gt;');
    expect(text).toContain('&lt;!everyone&gt;');
    expect(text).toContain('ping &lt;!here&gt; &amp; &lt;@U2&gt;');
    assertMessageWithinLimits(card);
  });

  it('shows the note in a context block as given', () => {
    const card = postCard(resolvedPost(), { note: 'Resolved by *Ada* via Slack' });
    const contexts = card.blocks.filter((b) => b.type === 'context');
    expect(allTexts(contexts.at(-1))).toEqual(['Resolved by *Ada* via Slack']);
  });

  it('shows every time as a date token whose fallback is UTC and says so (a relative one would go stale)', () => {
    const all = mrkdwn(postCard(resolvedPost()).blocks);
    const tokens = all.match(/<!date\^\d+\^[^|>]*\|[^>]*>/g) ?? [];
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    for (const token of tokens)
      expect(token).toMatch(/\^\{date_short_pretty\} at \{time\}\|\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC>$/);
  });
});

describe('card action value', () => {
  it('round-trips and rejects garbage', () => {
    const post = openPost();
    expect(parseCardActionValue(cardActionValue(post))).toEqual({
      postId: 'p-42',
      version: cardVersion(post),
    });
    for (const bad of ['', 'nope', '{}', '{"p":1,"v":"x"}', '{"p":"","v":"x"}', 'null', '[1]']) {
      expect(parseCardActionValue(bad)).toBeUndefined();
    }
  });
});
