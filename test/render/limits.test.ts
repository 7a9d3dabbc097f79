import { describe, expect, it } from 'vitest';
import { LIMITS, md, plain } from '../../src/render/limits.ts';
import { parseTimestamp, slackTime } from '../../src/render/time.ts';

describe('text objects cut to limits', () => {
  it('plain cuts with an ellipsis and never returns empty text', () => {
    expect(plain('Resolve', LIMITS.buttonText)).toEqual({ type: 'plain_text', text: 'Resolve', emoji: true });
    const long = plain('word '.repeat(100), LIMITS.buttonText);
    expect(long.text.length).toBeLessThanOrEqual(75);
    expect(long.text.endsWith('…')).toBe(true);
    expect(plain('', 10).text.length).toBe(1);
  });

  it('md cuts mrkdwn without breaking links', () => {
    const text = `${'a '.repeat(20)}<https://x.test/very/long|link label> tail`;
    for (let max = 1; max <= text.length; max++) {
      const out = md(text, max).text;
      expect(out.length).toBeLessThanOrEqual(max);
      expect(out.replace(/<https:\/\/x\.test\/very\/long\|link label>/, '')).not.toContain('<');
    }
  });

  it('names the real Block Kit limits', () => {
    expect(LIMITS).toMatchObject({
      sectionText: 3000,
      headerText: 150,
      buttonText: 75,
      buttonValue: 2000,
      optionText: 75,
      messageBlocks: 50,
      modalBlocks: 100,
      sectionFields: 10,
      fieldText: 2000,
      contextElements: 10,
      plainTextInputMaxLength: 3000,
      modalTitle: 24,
      messageText: 40000,
    });
  });
});

describe('timestamps', () => {
  it('parses leniently and refuses nonsense', () => {
    expect(parseTimestamp('2024-05-01T14:03:00Z')).toBe(Date.UTC(2024, 4, 1, 14, 3));
    expect(parseTimestamp('1714572180')).toBe(1714572180000);
    expect(parseTimestamp('1714572180000')).toBe(1714572180000);
    for (const bad of [null, undefined, '', 'soon', '99999-99-99'])
      expect(parseTimestamp(bad)).toBeUndefined();
  });

  it('formats with Slack date tokens, or raw and escaped', () => {
    expect(slackTime('2024-05-01T14:03:00Z')).toBe(
      '<!date^1714572180^{date_short_pretty} at {time}|2024-05-01 14:03 UTC>',
    );
    expect(slackTime('1714572180')).toBe(
      '<!date^1714572180^{date_short_pretty} at {time}|2024-05-01 14:03 UTC>',
    );
    expect(slackTime('last <Tuesday> & then')).toBe('last &lt;Tuesday&gt; &amp; then');
    expect(slackTime(undefined)).toBe('');
  });
});
