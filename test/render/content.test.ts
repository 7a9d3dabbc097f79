import { describe, expect, it } from 'vitest';
import { contentToMrkdwn } from '../../src/render/content.ts';
import { escapeMrkdwn } from '../../src/render/text.ts';

describe('escapeMrkdwn', () => {
  it("escapes Slack's three control characters", () => {
    expect(escapeMrkdwn('<!channel> <@U1> Tom & Jerry')).toBe('&lt;!channel&gt; &lt;@U1&gt; Tom &amp; Jerry');
  });
  it('escapes & first, so an escaped text escapes once more (no lost characters)', () => {
    expect(escapeMrkdwn('&lt;')).toBe('&amp;lt;');
  });
});

describe('contentToMrkdwn: safety', () => {
  it.each([
    ['<!channel> look', '&lt;!channel&gt; look'],
    ['<!here|here> now', '&lt;!here|here&gt; now'],
    ['hi <@U123>', 'hi &lt;@U123&gt;'],
    ['<https://evil.test|innocent>', 'https://evil.test|innocent'],
    ['<https://evil.test/|innocent>', '<https://evil.test/%7Cinnocent>'],
  ])('plain %j cannot ping, mention or forge a link', (input, expected) => {
    expect(contentToMrkdwn(input)).toBe(expected);
  });

  it('drops scripts and styles from HTML, keeping the text around', () => {
    const out = contentToMrkdwn('<p>Hi<script>alert("<!channel>")</script><style>p{}</style> there</p>');
    expect(out).toBe('Hi there');
  });

  it('escapes HTML entities that decode to control characters', () => {
    expect(contentToMrkdwn('<p>&lt;!channel&gt; &amp; &lt;@U1&gt;</p>')).toBe(
      '&lt;!channel&gt; &amp; &lt;@U1&gt;',
    );
  });

  it('keeps a markdown link with a javascript: url as text', () => {
    const out = contentToMrkdwn('[click me](javascript:alert(1)) now');
    expect(out).toBe('click me now');
    expect(out).not.toContain('<');
    expect(out).not.toContain('javascript');
  });

  it('keeps an HTML link with a javascript: or relative url as text', () => {
    expect(contentToMrkdwn('<p><a href="javascript:alert(1)">click</a> <a href="/posts/1">rel</a></p>')).toBe(
      'click rel',
    );
  });

  it('keeps a link label whole: | becomes a space, < and > stay escaped, so nothing ends the link early or mentions anyone', () => {
    expect(contentToMrkdwn('<a href="https://x.test">a|b>c &lt;!here&gt;</a>')).toBe(
      '<https://x.test|a b&gt;c &lt;!here&gt;>',
    );
  });

  it('escapes & inside urls', () => {
    expect(contentToMrkdwn('[doc](https://x.test/?a=1&b=2)')).toBe('<https://x.test/?a=1&amp;b=2|doc>');
  });

  it('never throws and gives readable text for garbage', () => {
    const inputs: Array<string | null | undefined> = [
      null,
      undefined,
      '',
      '<<<>>>',
      '<div><p><b>',
      '</p></div>',
      '&#xD800; &#99999999; &bogus;',
      '**unclosed [link](',
      '\u0000\u0007 bell \uE000',
      '`'.repeat(50),
      '<a href="https://x.test">'.repeat(200),
    ];
    for (const input of inputs) {
      const out = contentToMrkdwn(input);
      expect(typeof out).toBe('string');
      expect(out.replace(/<https:\/\/x\.test(\|[^<>]*)?>/g, '')).not.toMatch(/[<]/);
    }
    expect(contentToMrkdwn('\u0000\u0007 bell')).toBe('bell');
    expect(contentToMrkdwn('<div><p><b>')).toBe('');
    expect(contentToMrkdwn(`${'<i>'.repeat(15_000)}deep`)).toContain('deep');
    expect(contentToMrkdwn(`${'<ul><li>'.repeat(5000)}deep`)).toContain('deep');
  });
});

describe('contentToMrkdwn: HTML', () => {
  it('renders custom and unknown tags as their text', () => {
    const html =
      '<p>Thanks <mention data-id="u-1">Ada</mention>! See <x-embed src="https://x.test/e">the embed</x-embed> and <widget/>done.</p>';
    expect(contentToMrkdwn(html)).toBe('Thanks @Ada! See the embed and done.');
  });

  it('converts formatting, links, lists, headings, code and quotes', () => {
    const html = [
      '<h2>Release <em>2.3</em></h2>',
      '<p><strong>Bold</strong>, <i>italic</i>, <del>old</del> and <code>npm ci</code>.</p>',
      '<ul><li>one</li><li>two<ul><li>deep</li></ul></li></ul>',
      '<ol start="3"><li>third</li><li>fourth</li></ol>',
      '<pre><code>if (a &lt; b) {\n  go();\n}</code></pre>',
      '<blockquote><p>Said <b>so</b></p></blockquote>',
      '<p>Line<br>break <a href="https://x.test/doc">the doc</a></p>',
    ].join('');
    const out = contentToMrkdwn(html);
    expect(out.split('\n')).toEqual([
      '*Release _2.3_*',
      '',
      '*Bold*, _italic_, ~old~ and `npm ci`.',
      '',
      '• one',
      '• two',
      '    ◦ deep',
      '',
      '3. third',
      '4. fourth',
      '',
      '```',
      'if (a &lt; b) {',
      '  go();',
      '}',
      '```',
      '',
      '>Said *so*',
      '',
      'Line',
      'break <https://x.test/doc|the doc>',
    ]);
  });

  it('decodes entities once and re-escapes correctly (no &amp;amp;)', () => {
    expect(contentToMrkdwn('<p>Tom &amp; Jerry &eacute;t&eacute; &#60;3 &nbsp;</p>')).toBe(
      'Tom &amp; Jerry été &lt;3',
    );
    expect(contentToMrkdwn('<p>A &amp;amp; B</p>')).toBe('A &amp;amp; B');
  });

  it('keeps whitespace tight around formatting so Slack renders it', () => {
    expect(contentToMrkdwn('<p>a<b> bold </b>b</p>')).toBe('a *bold* b');
  });
});

describe('contentToMrkdwn: markdown and plain text', () => {
  it('converts markdown to mrkdwn', () => {
    const md = [
      '# Title',
      '**bold** and __also__, *it* and _it_, ~~gone~~',
      '[label](https://x.test/a_(b)) and <https://y.test>',
      '- one',
      '  - two',
      '* three',
      '1. first',
      '- [x] done',
      '> quoted',
      '```',
      'const a = b && c;',
      '```',
      'inline `x < y` code',
    ].join('\n');
    expect(contentToMrkdwn(md).split('\n')).toEqual([
      '*Title*',
      '*bold* and *also*, _it_ and _it_, ~gone~',
      '<https://x.test/a_(b)|label> and <https://y.test>',
      '• one',
      '    ◦ two',
      '• three',
      '1. first',
      '• ☑ done',
      '>quoted',
      '```',
      'const a = b &amp;&amp; c;',
      '```',
      'inline `x &lt; y` code',
    ]);
  });

  it('decodes entities in markdown and plain text', () => {
    expect(contentToMrkdwn('Tom &amp; Jerry &lt;3 &copy;')).toBe('Tom &amp; Jerry &lt;3 ©');
    expect(contentToMrkdwn('R&D for Vec<String>')).toBe('R&amp;D for Vec&lt;String&gt;');
  });

  it('leaves plain text as it is, escaped', () => {
    expect(contentToMrkdwn('Just text.\n\nSecond paragraph: 2 * 3 = 6')).toBe(
      'Just text.\n\nSecond paragraph: 2 * 3 = 6',
    );
  });

  it('supports mailto links and refuses other schemes', () => {
    expect(contentToMrkdwn('[mail](mailto:a@b.test) [ftp](ftp://x.test) [data](data:text/html,hi)')).toBe(
      '<mailto:a@b.test|mail> ftp data',
    );
  });
});
