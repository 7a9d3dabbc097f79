import { describe, expect, it } from 'vitest';
import { slackToMarkdown } from '../../src/render/slackMarkdown.ts';

describe('slackToMarkdown', () => {
  const names = {
    user: (id: string) => ({ U123: 'Ada Lovelace' })[id],
    channel: (id: string) => ({ C9: 'random' })[id],
  };

  it('turns mentions into names and keeps unknown ids', () => {
    expect(slackToMarkdown('Hi <@U123> and <@U999>', names)).toBe('Hi @Ada Lovelace and @U999');
  });

  it('turns channels, links and specials into markdown', () => {
    expect(
      slackToMarkdown(
        '<#C123|general> <#C9> <https://x.test|the doc> <https://y.test> <!here> <!channel>',
        names,
      ),
    ).toBe('#general #random [the doc](https://x.test) https://y.test @here @channel');
  });

  it('converts formatting and decodes entities', () => {
    expect(slackToMarkdown('*bold* _it_ ~strike~ a &amp; b &lt;tag&gt; 2*3*4', names)).toBe(
      '**bold** _it_ ~~strike~~ a & b <tag> 2*3*4',
    );
  });

  it('keeps code as it is, decoded', () => {
    expect(slackToMarkdown('run `a *b* &amp;&amp; c`\n```\n*x* &lt;y&gt;\n```', names)).toBe(
      'run `a *b* && c`\n```\n*x* <y>\n```',
    );
  });

  it('decodes entities inside link urls and labels', () => {
    expect(slackToMarkdown('<https://x.test/?a=1&amp;b=2|Q &amp; A>', names)).toBe(
      '[Q & A](https://x.test/?a=1&b=2)',
    );
  });

  it('appends the permalink', () => {
    expect(slackToMarkdown('hello', names, 'https://slack.test/archives/C1/p1')).toBe(
      'hello\n\n[View in Slack](https://slack.test/archives/C1/p1)',
    );
  });
});
