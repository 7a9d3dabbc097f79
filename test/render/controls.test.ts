/**
 * Text people write never brings control or bidirectional-override characters onto a card:
 * an RLO in a title would show readers a title that is not the one written ("Trojan Source").
 * Every builder that shows service text is fed them in every field a person writes, and what
 * comes out has none of them; the characters people need (other scripts, emoji sequences,
 * left-to-right and right-to-left marks) stay.
 */
import { describe, expect, it } from 'vitest';
import type { Message, Page, Post } from '../../src/collab/schemas.ts';
import { type DigestItem, digestMessage } from '../../src/render/digest.ts';
import { messageList, postList } from '../../src/render/lists.ts';
import { mirroredMessage } from '../../src/render/mirror.ts';
import { commentModal, resolveModal } from '../../src/render/modals.ts';
import { postCard } from '../../src/render/postCard.ts';
import { postUnfurl } from '../../src/render/unfurl.ts';

/** Right-to-left override, the other embeddings and isolates, and C0/C1 controls. */
const FORBIDDEN = [
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u0000',
  '\u0007',
  '\u001B',
  '\u007F',
  '\u0085',
  '\u009B',
];
const CONTROL_OR_BIDI = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;
/** Whether a string holds a forbidden character (newlines and tabs are fine). */
const forbidden = (text: string) =>
  [...text].some((c) => c !== '\n' && c !== '\t' && CONTROL_OR_BIDI.test(c));

/** "Invoice \u202Efdp.exe" reads "Invoice exe.pdf"; every forbidden character rides along. */
const spoof = (word: string) => `${word} \u202Efdp.exe\u202C ${FORBIDDEN.join('')}end`;
const KEPT = 'مرحبا 👩‍💻 \u200Emark\u200F';

const post: Post = {
  id: 'p-1',
  title: `${spoof('Invoice')} ${KEPT}`,
  content: `<p>${spoof('Body')}</p>`,
  url: 'https://collab.test/posts/1',
  comments_count: 1,
  channel: { id: 'c-1', name: spoof('chan') },
  author: { id: 'u-1', name: spoof('Mallory'), type: spoof('bot') },
  created_at: '2024-05-01T14:03:00Z',
  resolution: {
    resolved_at: '2024-05-02T10:00:00Z',
    resolved_html: `<p>${spoof('Done')}</p>`,
    resolved_by: { id: 'u-2', name: spoof('Eve') },
    resolved_comment: null,
  },
};
const message: Message = {
  id: 'm-1',
  content: spoof('Hello'),
  author: { id: 'u-1', name: spoof('Mallory') },
};
const page = <T>(data: T[]): Page<T> => ({
  data,
  total_count: data.length,
  next_cursor: null,
  prev_cursor: null,
});
const item: DigestItem = {
  id: 'p-1',
  title: spoof('Digest title'),
  content: spoof('words'),
  url: null,
  channel: spoof('chan'),
  author: spoof('Mallory'),
  commentsCount: 0,
  resolvedBy: spoof('Eve'),
  createdMs: 1,
  activityMs: 2,
  resolvedMs: 3,
};
const group = { items: [item], count: 1 };

const rendered: Array<[string, unknown]> = [
  ['post card', postCard(post)],
  ['unfurl', postUnfurl(post, '/collab')],
  ['post list', postList(page([post]), { title: spoof('List'), paging: {} })],
  ['message list', messageList(page([message]), { title: 'Thread', paging: {} })],
  ['mirrored message', mirroredMessage(message)],
  [
    'digest',
    digestMessage(
      {
        since: 0,
        until: 1,
        newPosts: group,
        resolved: group,
        active: group,
        open: group,
        scanned: 1,
        truncated: false,
      },
      { channelName: spoof('chan') },
    ),
  ],
  [
    'resolve form',
    resolveModal({
      postId: 'p-1',
      post,
      privateMetadata: '',
      comment: { id: 'c-1', excerpt: spoof('excerpt') },
    }),
  ],
  ['comment form', commentModal({ postId: 'p-1', post, privateMetadata: '' })],
];

describe('control and bidi-override characters', () => {
  it.each(rendered)('never reach Slack through the %s', (_what, output) => {
    const json = JSON.stringify(output);
    // JSON escapes C0 controls as \uXXXX: look at the decoded strings.
    const strings: string[] = [];
    JSON.parse(json, (_key, value: unknown) => {
      if (typeof value === 'string') strings.push(value);
      return value;
    });
    const found = strings.filter(forbidden);
    expect(found).toEqual([]);
  });

  it('keep what people need: other scripts, emoji sequences, direction marks', () => {
    const json = JSON.stringify(postCard(post));
    expect(json).toContain('مرحبا');
    expect(json).toContain('👩‍💻');
    expect(json).toContain('\u200Emark\u200F');
    expect(json).toContain('Invoice fdp.exe end');
  });
});
