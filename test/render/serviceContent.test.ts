/**
 * The service's content as it really comes back (HTML converted from markdown, its own tags,
 * raw markdown wrapped in <p> when its converter is down) through every renderer that shows it:
 * no card, list, unfurl or mirrored message shows markdown or HTML syntax. The HTML is made by
 * the emulator's converter, the same the service's behaviour is modelled on.
 */
import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import type { Message, Post } from '../../src/collab/schemas.ts';
import { contentToMrkdwn } from '../../src/render/content.ts';
import { messageList, postList } from '../../src/render/lists.ts';
import { mirroredMessage } from '../../src/render/mirror.ts';
import { postCard } from '../../src/render/postCard.ts';
import { postUnfurl } from '../../src/render/unfurl.ts';
import { convertContent } from '../../src/sandbox/emulator/render.ts';

const ADA = { id: 'a1b2c3d4e5f6', name: 'Ada Lovelace' };
const APP = { id: 'app000000001', name: 'Collab for Slack', type: 'app' };

/** What people and the bot write, in markdown. */
const WRITTEN = [
  'Release **2.0** is out: see [the notes](https://example.com/notes) & thank @Ada Lovelace',
  '# Launch day\n\n- [x] docs\n- [ ] blog post\n\n> quoted *it*\n\n`code` and ~~old~~',
  '**Thursday**\n\nChess at noon, 1 < 2 > 0',
  'Body of the *post*\n\n_Posted from Slack by Ada Lovelace ([message](https://slack.example/archives/C1/p1))_',
];

/** The service's own tags, as it stores them. */
const SERVICE_HTML = [
  '<p>See <link-unfurl href="https://example.com/spec"></link-unfurl> and <resource-mention href="https://collab.example/acme/posts/abc"></resource-mention></p>',
  '<p>Nice <img data-type="reaction" alt="🎉" src="https://cdn.example/r.png"></p><post-attachment id="x1" name="plan.pdf"></post-attachment>',
  '<ul data-type="taskList"><li data-type="taskItem" data-checked="true"><p>done</p></li><li data-type="taskItem" data-checked="false"><p>todo</p></li></ul><media-gallery><media-gallery-item></media-gallery-item></media-gallery>',
];

const convert = (markdown: string) => convertContent(markdown, { members: [ADA] });
const CONTENTS = [
  ...WRITTEN.map(convert),
  ...SERVICE_HTML,
  // The service's converter down: the raw markdown in one paragraph.
  ...WRITTEN.map((markdown) => `<p>${markdown}</p>`),
];

/** Markdown or HTML syntax that must never reach Slack text. */
const SYNTAX = [
  '**',
  '](',
  '<p>',
  '</',
  '<span',
  '<em',
  '<strong',
  '&lt;p',
  '&lt;span',
  '&amp;lt;',
  '# ',
  '[x]',
  '[ ]',
];

function texts(blocks: readonly KnownBlock[]): string {
  return JSON.stringify(blocks);
}

function expectClean(text: string): void {
  for (const syntax of SYNTAX) expect(text, `"${syntax}" in ${text}`).not.toContain(syntax);
}

function post(content: string, resolvedHtml?: string): Post {
  return {
    id: 'p1a2b3c4d5e6',
    title: '',
    created_at: '2026-01-01T10:00:00Z',
    last_activity_at: '2026-01-01T10:00:00Z',
    url: 'https://collab.example/acme/posts/p1a2b3c4d5e6',
    content,
    comments_count: 1,
    channel: { id: 'c1', name: 'general' },
    author: APP,
    resolution:
      resolvedHtml === undefined
        ? null
        : {
            resolved_at: '2026-01-01T11:00:00Z',
            resolved_html: resolvedHtml,
            resolved_by: APP,
            resolved_comment: null,
          },
  };
}

describe('service content through every renderer', () => {
  it.each(CONTENTS.map((content) => [content]))('shows no markdown or HTML syntax: %s', (content) => {
    expectClean(contentToMrkdwn(content));
    const resolved = convert('Fixed in **v2**\n\n_Resolved from Slack by Ada Lovelace_');
    expectClean(texts(postCard(post(content)).blocks));
    expectClean(texts(postCard(post(content, resolved)).blocks));
    expectClean(texts(postList({ data: [post(content)] }, { title: 'Posts', paging: {} }).blocks));
    expectClean(texts(postUnfurl(post(content), '/collab').blocks));
    const message: Message = { id: 'm1', content, author: { id: ADA.id, name: ADA.name, type: 'member' } };
    expectClean(texts(mirroredMessage(message).blocks));
    expectClean(texts(messageList({ data: [message] }, { title: 'Messages', paging: {} }).blocks));
  });

  it('a mention span shows the member, a link-unfurl a link, task items their boxes', () => {
    expect(contentToMrkdwn(convert('thanks @Ada Lovelace'))).toBe('thanks @Ada Lovelace');
    expect(contentToMrkdwn(SERVICE_HTML[0] ?? '')).toContain('<https://example.com/spec>');
    expect(contentToMrkdwn(SERVICE_HTML[2] ?? '')).toMatch(/☑ done\n☐ todo/);
    expect(contentToMrkdwn(SERVICE_HTML[1] ?? '')).toContain(':paperclip: plan.pdf');
  });

  it('markdown the service stored unconverted renders as if converted', () => {
    const markdown = WRITTEN[0] ?? '';
    expect(contentToMrkdwn(`<p>${markdown}</p>`)).toBe(contentToMrkdwn(convert(markdown)));
  });

  it('a resolution made from Slack names the person once, via Slack, and not the app', () => {
    const resolved = convert('Fixed in v2\n\n_Resolved from Slack by Ada Lovelace_');
    const text = texts(
      postCard(post(convert('Body\n\n_Posted from Slack by Ada Lovelace_'), resolved)).blocks,
    );
    expect(text).toContain('*Resolved* by *Ada Lovelace* via Slack');
    expect(text).toContain('Ada Lovelace via Slack');
    expect(text).not.toContain('Collab for Slack');
    expect(text).not.toContain('from Slack by');
    expect(text).not.toContain('(app)');
  });
});
