import { describe, expect, it } from 'vitest';
import { problem, success, working } from '../../src/render/messages.ts';
import { allTexts, assertMessageWithinLimits } from '../support/blockKit.ts';

describe('outcome messages', () => {
  it('working shows an hourglass', () => {
    const out = working('Creating the post…');
    expect(out.text).toBe(':hourglass_flowing_sand: Creating the post…');
    assertMessageWithinLimits(out);
  });

  it('problem shows what went wrong and how to fix it, escaped', () => {
    const out = problem('The service said: <b>Not found</b> & <!channel>', 'Check the post id, e.g. `1042`.');
    expect(allTexts(out.blocks)).toEqual([
      ':warning: The service said: &lt;b&gt;Not found&lt;/b&gt; &amp; &lt;!channel&gt;',
      'Check the post id, e.g. `1042`.',
    ]);
    assertMessageWithinLimits(out);
    expect(problem('Nope').blocks).toHaveLength(1);
  });

  it('success can carry a safe link', () => {
    const out = success('Posted *Ship 2.3*', { link: { url: 'https://collab.test/p/1', label: 'Open' } });
    expect(out.text).toBe(':white_check_mark: Posted *Ship 2.3* <https://collab.test/p/1|Open>');
    expect(success('Done', { link: { url: 'javascript:x', label: 'Open' } }).text).toBe(
      ':white_check_mark: Done Open',
    );
    assertMessageWithinLimits(out);
  });

  it('cuts very long texts to the limits', () => {
    const out = problem('x'.repeat(50_000), 'y'.repeat(5000));
    assertMessageWithinLimits(out);
  });
});
