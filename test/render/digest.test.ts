/** Digest, unfurl and App Home renderers: grouped, linked, inside Block Kit limits. */
import { describe, expect, it } from 'vitest';
import type { Post } from '../../src/collab/schemas.ts';
import type { DigestItem, DigestSummary } from '../../src/render/digest.ts';
import { digestListMessage, digestMessage, quietDigestMessage } from '../../src/render/digest.ts';
import { homeView } from '../../src/render/home.ts';
import { postUnfurl } from '../../src/render/unfurl.ts';
import { assertWithinLimits } from '../support/blockKit.ts';

const item = (i: number, title = `Post ${i}`): DigestItem => ({
  id: `pst_${i}`,
  title,
  content: undefined,
  url: `https://collab.example.com/p/${i}`,
  channel: 'engineering',
  author: 'Ada <@here>',
  commentsCount: i,
  resolvedBy: 'Grace',
  createdMs: 1,
  activityMs: 2,
  resolvedMs: 3,
});
const group = (count: number, shown = Math.min(count, 5), title?: string) => ({
  count,
  items: Array.from({ length: shown }, (_, i) => item(i, title)),
});
const summary = (counts: [number, number, number, number], title?: string): DigestSummary => ({
  since: Date.parse('2026-03-28T08:00:00Z'),
  until: Date.parse('2026-03-29T07:00:00Z'),
  newPosts: group(counts[0], undefined, title),
  resolved: group(counts[1], undefined, title),
  active: group(counts[2], undefined, title),
  open: group(counts[3], undefined, title),
  scanned: 10_000,
  truncated: false,
});
const text = (blocks: unknown) => JSON.stringify(blocks);

describe('digestMessage', () => {
  it('names an untitled post by its words as they are: they were converted once already, so `<b>` in them is text, not a tag', () => {
    // collectDigest keeps the plain words of a post's content; converting them again as service
    // content read "<b>" as HTML and dropped it.
    const words: DigestItem = { ...item(1, ''), title: null, content: 'Wrap it in <b> tags, 2 * 3 * 4' };
    const message = digestMessage({ ...summary([0, 0, 0, 0]), newPosts: { count: 1, items: [words] } }, {});
    // Escaped in the link's label, `<b>` ends nothing: both brackets stay.
    expect(text(message.blocks)).toContain('|Wrap it in &lt;b&gt; tags, 2 * 3 * 4>');
  });

  it('groups with counts, links and "…and N more"', () => {
    const message = digestMessage(summary([120, 3, 0, 7]), {
      channelName: 'engineering',
      schedule: 'every day at 09:00 (Europe/Paris)',
    });
    assertWithinLimits(message.blocks);
    const all = text(message.blocks);
    expect(all).toContain('New posts (120)');
    expect(all).toContain('…and 115 more');
    expect(all).toContain('Resolved (3)');
    expect(all).not.toContain('Most active');
    expect(all).toContain('Still unresolved (7)');
    expect(all).toContain('<https://collab.example.com/p/0|Post 0>');
    expect(all).toContain('<!date^');
    expect(all).not.toContain('<@here>');
  });

  it('stays inside limits with huge titles', () => {
    const message = digestMessage(summary([9999, 9999, 9999, 9999], 'T'.repeat(5000)), {});
    assertWithinLimits(message.blocks);
    expect(text(message.blocks)).toContain('all channels');
  });

  it('quiet note and list', () => {
    assertWithinLimits(quietDigestMessage({ since: 0 }, { channelName: 'eng' }).blocks);
    const list = digestListMessage(
      [
        {
          id: 'd1',
          label: 'every weekday at 09:00',
          tz: 'Europe/Paris',
          next: Date.parse('2026-03-30T07:00:00Z'),
        },
      ],
      { command: '/collab' },
    );
    assertWithinLimits(list.blocks);
    expect(text(list.blocks)).toContain('not linked');
    expect(text(list.blocks)).toContain('<!date^1774854000^');
  });
});

describe('postUnfurl', () => {
  it('is the card without its buttons, inside limits', () => {
    const post: Post = {
      id: 'pst_1',
      title: 'Ship 2.3',
      url: 'https://collab.example.com/p/1',
      content: `<p>${'Long words '.repeat(400)}</p>`,
      comments_count: 2,
      channel: { id: 'chn_1', name: 'engineering' },
      author: { id: 'mbr_1', name: 'Ada' },
      resolution: null,
    };
    const unfurl = postUnfurl(post, '/collab');
    assertWithinLimits(unfurl.blocks);
    expect(unfurl.blocks.some((b) => b.type === 'actions')).toBe(false);
    expect(text(unfurl.blocks)).toContain('Read more');
    expect(text(unfurl.blocks)).toContain('2 comments');
  });
});

describe('App Home activity sections', () => {
  it('show the service, channels, digests and recent operations', () => {
    const view = homeView({
      teamId: 'T1',
      userId: 'U1',
      mode: 'single',
      canManage: true,
      audit: [],
      command: '/collab',
      activity: {
        service: { state: 'rejected', checkedAt: Date.parse('2026-03-29T07:00:00Z'), detail: '(HTTP 401)' },
        links: Array.from({ length: 14 }, (_, i) => ({
          slackChannel: `C${i}`,
          channelName: `chan-${i}`,
          followed: i % 2 === 0,
          bridgeReplies: false,
        })),
        followedOnly: ['C99'],
        digests: [
          {
            id: 'd1',
            slackChannel: 'C1',
            label: 'every day at 09:00',
            tz: 'Europe/Paris',
            next: Date.parse('2026-03-30T07:00:00Z'),
          },
        ],
        recent: [
          {
            operation: 'createPost',
            outcome: 'failed',
            reason: 'Could not create the post: no channel <#C1|x> & more',
            at: '2026-03-29T07:00:00Z',
          },
          { operation: 'resolvePost', outcome: 'completed', at: '2026-03-29T06:00:00Z' },
          {
            operation: 'createComment',
            subject: { title: `Fix <b> & ${'long '.repeat(30)}`, url: 'javascript:alert(1)' },
            outcome: 'completed',
            at: '2026-03-29T05:00:00Z',
          },
          {
            operation: 'unresolvePost',
            subject: { title: 'Launch *plan*', url: 'https://collab.example.com/p/1' },
            outcome: 'completed',
            at: '2026-03-29T04:00:00Z',
          },
        ],
      },
    });
    assertWithinLimits(view.blocks, 'modal');
    const all = text(view.blocks);
    expect(all).toContain('rejects the API key');
    expect(all).toContain('<#C3>');
    expect(all).toContain('…and 5 more');
    expect(all).toContain('next <!date^1774854000^');
    expect(all).toContain(
      'could not create the post: Could not create the post: no channel &lt;#C1|x&gt; &amp; more',
    );
    expect(all).toContain('home_new_post');
    // What an operation acted on: escaped, cut to one short line, linked only to a web address.
    const lines = view.blocks.flatMap((b) => {
      const section = b as { type: string; text?: { text: string } };
      return section.type === 'section' && section.text ? section.text.text.split('\n') : [];
    });
    const comment = lines.find((line) => line.includes('add the comment to'));
    expect(comment).toMatch(/: add the comment to \*Fix &lt;b&gt; &amp; (long ){10,}[^*]*…\*$/);
    expect(comment).not.toContain('javascript');
    // 80 characters of title, a few more once escaped; the 150 of a long title do not fit.
    expect(comment!.slice(comment!.indexOf('to *') + 4, -1).length).toBeLessThanOrEqual(90);
    expect(lines).toContainEqual(
      expect.stringContaining(': reopen the post *<https://collab.example.com/p/1|Launch *plan*>*'),
    );
  });
});
