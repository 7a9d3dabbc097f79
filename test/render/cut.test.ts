import { describe, expect, it } from 'vitest';
import { truncate } from '../../src/render/cut.ts';

describe('truncate', () => {
  const words = 'lorem ipsum dolor sit amet consectetur adipiscing elit '.repeat(40);

  it('returns short text unchanged', () => {
    expect(truncate('short', 10)).toBe('short');
  });

  it('cuts at a word boundary and adds an ellipsis', () => {
    const out = truncate('alpha beta gamma delta', 14);
    expect(out).toBe('alpha beta…');
  });

  it('adds a Read more link that is never cut', () => {
    const out = truncate(words, 120, { url: 'https://x.test/p/1' });
    expect(out.length).toBeLessThanOrEqual(120);
    expect(out.endsWith('… <https://x.test/p/1|Read more>')).toBe(true);
    expect(truncate(words, 120, { url: 'https://x.test/p/1', label: 'More | here' })).toMatch(
      /… <https:\/\/x\.test\/p\/1\|More here>$/,
    );
  });

  it('drops the link when it does not fit, and ignores unsafe urls', () => {
    expect(truncate(words, 10, { url: 'https://x.test/a-very-long-url' })).toMatch(/…$/);
    expect(truncate(words, 100, { url: 'javascript:alert(1)' })).not.toContain('javascript');
  });

  it('never ends inside a link or an entity', () => {
    const text = `${'a'.repeat(40)} <https://x.test/long/path|label> &amp; &lt;more&gt;`;
    for (let max = 1; max < text.length; max++) {
      const out = truncate(text, max);
      expect(out.length).toBeLessThanOrEqual(max);
      const body = out.replace(/…$/, '');
      expect(body).not.toMatch(/<[^>]*$/);
      expect(body).not.toMatch(/&[a-z]*$/);
    }
  });

  it('closes a code block it cuts', () => {
    const text = `intro\n\`\`\`\n${'code line\n'.repeat(50)}\`\`\``;
    const out = truncate(text, 100);
    expect(out.length).toBeLessThanOrEqual(100);
    expect(out.split('```').length - 1).toBe(2);
  });

  it('is never longer than max, for many lengths and inputs (property)', () => {
    const inputs = [
      words,
      'x'.repeat(5000),
      '😀'.repeat(500),
      `${'<https://x.test|a> '.repeat(100)}`,
      '&amp;'.repeat(300),
    ];
    for (const input of inputs) {
      for (let max = 0; max <= 700; max += 7) {
        for (const more of [undefined, { url: 'https://x.test/p/1' }, { url: null }]) {
          const out = truncate(input, max, more);
          expect(out.length).toBeLessThanOrEqual(max);
          if (input.length > max && max > 0) expect(out).toContain('…');
          expect(out).not.toMatch(/[\uD800-\uDBFF]$/);
        }
      }
    }
  });
});
