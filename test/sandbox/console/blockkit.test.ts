import { describe, expect, it } from 'vitest';
import { slackEmoji } from '../../../src/sandbox/console/emoji.ts';
import {
  escapeHtml,
  mrkdwnToHtml,
  renderBlocks,
  textToHtml,
} from '../../../src/sandbox/console/public/blockkit.js';

const md = (text: string) => ({ type: 'mrkdwn', text });
const plain = (text: string) => ({ type: 'plain_text', text });

describe('mrkdwnToHtml', () => {
  it('formats bold, italic, strike and inline code', () => {
    expect(mrkdwnToHtml('*bold* _italic_ ~gone~ `x < y`')).toBe(
      '<strong>bold</strong> <em>italic</em> <del>gone</del> <code>x &lt; y</code>',
    );
  });

  it('keeps code blocks verbatim, without formatting inside', () => {
    expect(mrkdwnToHtml('before\n```\n*not bold* <b>\n```')).toBe(
      'before<br><pre class="bk-pre">*not bold* &lt;b&gt;\n</pre>',
    );
  });

  it('does not format inside words (snake_case, 2*3*4)', () => {
    expect(mrkdwnToHtml('post_create_view and 2*3*4')).toBe('post_create_view and 2*3*4');
  });

  it('renders links, with and without a label, and refuses javascript: urls', () => {
    expect(mrkdwnToHtml('<https://example.com/a?b=1&amp;c=2|the doc>')).toBe(
      // Slack sends `&amp;`; the href holds `&`, escaped once for HTML.
      '<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">the doc</a>',
    );
    expect(mrkdwnToHtml('<https://example.com>')).toContain('>https://example.com</a>');
    expect(mrkdwnToHtml('<javascript:alert(1)|click>')).toBe('&lt;javascript:alert(1)|click&gt;');
  });

  it('renders mentions of users and channels with known names, else the label or id', () => {
    const options = { users: { U0ADA: 'Ada' }, channels: { C0GENERAL: 'general' } };
    expect(mrkdwnToHtml('hi <@U0ADA> and <@U0X|xavier> in <#C0GENERAL> <!here>', options)).toBe(
      'hi <span class="bk-mention" data-user="U0ADA">@Ada</span> and ' +
        '<span class="bk-mention" data-user="U0X">@xavier</span> in ' +
        '<span class="bk-mention bk-channel">#general</span> <span class="bk-mention bk-broadcast">@here</span>',
    );
  });

  it('formats <!date^…|fallback> in the given time zone, keeping the fallback as its title', () => {
    const html = mrkdwnToHtml('<!date^1700000000^{date_short} at {time}|Nov 14, 2023>', { timeZone: 'UTC' });
    expect(html).toBe(
      '<time datetime="2023-11-14T22:13:20.000Z" title="Nov 14, 2023">Nov 14, 2023 at 10:13 PM</time>',
    );
    expect(mrkdwnToHtml('<!date^nope^{date}|fallback>')).toBe('fallback');
  });

  it('turns Slack emoji codes into emoji, from the emoji data the console serves; unknown ones stay text', async () => {
    const emoji = await slackEmoji();
    expect(Object.keys(emoji).length).toBeGreaterThan(1500);
    const html = mrkdwnToHtml(
      ':white_check_mark: done :large_green_circle: :satellite_antenna: :new: :+1::skin-tone-3: :unknown_thing:',
      { emoji },
    );
    expect(html).toBe(
      [
        `<span class="bk-emoji" title=":white_check_mark:">${emoji.white_check_mark}</span> done`,
        `<span class="bk-emoji" title=":large_green_circle:">🟢</span>`,
        `<span class="bk-emoji" title=":satellite_antenna:">📡</span>`,
        `<span class="bk-emoji" title=":new:">🆕</span>`,
        `<span class="bk-emoji" title=":+1:">${emoji['+1']}</span>`,
        ':unknown_thing:',
      ].join(' '),
    );
    expect(textToHtml({ type: 'plain_text', text: 'Hi :wave:', emoji: true }, { emoji })).toBe(
      `Hi ${emoji.wave}`,
    );
  });

  it('renders quotes, with or without a space after >, and newlines', () => {
    expect(mrkdwnToHtml('&gt; quoted\n&gt;more\nafter')).toBe(
      '<blockquote>quoted<br>more</blockquote><br>after',
    );
    expect(mrkdwnToHtml('&gt;Fixed by Ada')).toBe('<blockquote>Fixed by Ada</blockquote>');
    expect(mrkdwnToHtml('a &gt; b')).toBe('a &gt; b');
  });

  it('shows a date token in the viewing person’s own time zone', () => {
    const token = '<!date^1700000000^{date_short_pretty} at {time}|2023-11-14 22:13 UTC>';
    expect(mrkdwnToHtml(token, { timeZone: 'Europe/Paris' })).toContain('>Nov 14, 2023 at 11:13 PM</time>');
    expect(mrkdwnToHtml(token, { timeZone: 'America/New_York' })).toContain(
      '>Nov 14, 2023 at 5:13 PM</time>',
    );
  });

  it("undoes Slack's escaping once, then escapes for HTML: no markup gets through", () => {
    expect(mrkdwnToHtml('<script>alert(1)</script> &amp; &lt;b&gt;')).toBe(
      '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;',
    );
    expect(mrkdwnToHtml('<https://x.example|<img src=x onerror=alert(1)>>')).not.toContain('<img');
    expect(escapeHtml(`"'<>&`)).toBe('&quot;&#39;&lt;&gt;&amp;');
  });
});

describe('renderBlocks', () => {
  it('renders a header, a divider and a context with text and an image as a link', () => {
    const html = renderBlocks([
      { type: 'header', text: plain('Title <b>') },
      { type: 'divider' },
      {
        type: 'context',
        elements: [
          md('*by* Ada'),
          { type: 'image', image_url: 'https://img.example/a.png', alt_text: 'avatar' },
        ],
      },
    ]);
    expect(html).toContain('<div class="bk-block bk-header" data-block-id="">Title &lt;b&gt;</div>');
    expect(html).toContain('<hr class="bk-block bk-divider">');
    expect(html).toContain('<span class="bk-context-text"><strong>by</strong> Ada</span>');
    expect(html).toContain(
      '<a href="https://img.example/a.png" target="_blank" rel="noopener noreferrer">🖼 avatar</a>',
    );
  });

  it('renders a section with text, fields and an accessory button', () => {
    const html = renderBlocks([
      {
        type: 'section',
        block_id: 'card',
        text: md('_Ship it_'),
        fields: [md('*Status*'), plain('Open')],
        accessory: {
          type: 'button',
          action_id: 'post_open',
          text: plain('Open'),
          url: 'https://x.example/p/1',
        },
      },
    ]);
    expect(html).toContain('<div class="bk-section-text"><em>Ship it</em></div>');
    expect(html).toContain(
      '<div class="bk-field"><strong>Status</strong></div><div class="bk-field">Open</div>',
    );
    expect(html).toContain(
      '<button type="button" class="bk-button" data-action-id="post_open" data-block-id="card" data-type="button" data-value="" data-url="https://x.example/p/1">Open</button>',
    );
  });

  it('renders actions with primary and danger buttons and a static select', () => {
    const html = renderBlocks([
      {
        type: 'actions',
        block_id: 'a1',
        elements: [
          {
            type: 'button',
            action_id: 'post_resolve',
            style: 'primary',
            text: plain('Resolve'),
            value: '{"p":"1"}',
          },
          { type: 'button', action_id: 'post_delete', style: 'danger', text: plain('Delete') },
          {
            type: 'static_select',
            action_id: 'pick',
            placeholder: plain('Pick'),
            initial_option: { text: plain('Two'), value: '2' },
            options: [
              { text: plain('One'), value: '1' },
              { text: plain('Two'), value: '2' },
            ],
          },
        ],
      },
    ]);
    expect(html).toContain('class="bk-button bk-primary" data-action-id="post_resolve" data-block-id="a1"');
    expect(html).toContain('data-value="{&quot;p&quot;:&quot;1&quot;}"');
    expect(html).toContain('class="bk-button bk-danger" data-action-id="post_delete"');
    expect(html).toContain('<option value="" disabled>Pick</option>');
    expect(html).toContain('<option value="2" data-text="Two" selected>Two</option>');
  });

  it('renders an external select with its initial option and its minimum query length', () => {
    const html = renderBlocks([
      {
        type: 'input',
        block_id: 'channel',
        optional: true,
        label: plain('Channel'),
        element: {
          type: 'external_select',
          action_id: 'channel_picker',
          min_query_length: 0,
          initial_option: { text: plain('#general'), value: '{"id":"ch_1"}' },
        },
      },
    ]);
    expect(html).toContain(
      'data-action-id="channel_picker" data-block-id="channel" data-type="external_select" data-min-query="0"',
    );
    expect(html).toContain('value="#general"');
    expect(html).toContain('value="{&quot;id&quot;:&quot;ch_1&quot;}"');
    expect(html).toContain('<span class="bk-optional">(optional)</span>');
  });

  it('renders plain text inputs, single and multiline, with initial values, hints and errors', () => {
    const html = renderBlocks(
      [
        {
          type: 'input',
          block_id: 'title',
          label: plain('Title'),
          element: { type: 'plain_text_input', action_id: 'title_input', initial_value: 'a "quote"' },
        },
        {
          type: 'input',
          block_id: 'content',
          label: plain('Content'),
          hint: plain('Markdown works'),
          element: {
            type: 'plain_text_input',
            action_id: 'content_input',
            multiline: true,
            initial_value: '</textarea><b>',
          },
        },
      ],
      { errors: { content: 'Write the post.' } },
    );
    expect(html).toContain('value="a &quot;quote&quot;"');
    expect(html).toContain('<textarea class="bk-input" rows="4" data-action-id="content_input"');
    expect(html).toContain('>&lt;/textarea&gt;&lt;b&gt;</textarea>');
    expect(html).toContain('<div class="bk-hint">Markdown works</div>');
    expect(html).toContain('<div class="bk-error" data-error-for="content">Write the post.</div>');
    expect(html).toContain('<div class="bk-error" data-error-for="title" hidden></div>');
  });

  it('renders an image block as a link, and unknown blocks and elements as placeholders', () => {
    const html = renderBlocks([
      { type: 'image', image_url: 'javascript:alert(1)', alt_text: 'x' },
      { type: 'video' },
      { type: 'actions', elements: [{ type: 'datepicker', action_id: 'd' }] },
    ]);
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('[video block]');
    expect(html).toContain('[datepicker]');
  });

  it('escapes <script> everywhere: text objects, ids, values, labels', () => {
    const evil = '<script>alert(1)</script>';
    const html = renderBlocks([
      { type: 'header', text: plain(evil) },
      { type: 'section', block_id: evil, text: md(evil) },
      { type: 'actions', elements: [{ type: 'button', action_id: evil, value: evil, text: plain(evil) }] },
      {
        type: 'input',
        label: plain(evil),
        element: { type: 'plain_text_input', action_id: 'a', placeholder: plain(evil) },
      },
    ]);
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;');
  });

  it('renders nothing for something that is not a list of blocks', () => {
    expect(renderBlocks(undefined)).toBe('');
    expect(renderBlocks('<b>')).toBe('');
  });
});
