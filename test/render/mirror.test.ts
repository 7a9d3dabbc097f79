import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/collab/schemas.ts';
import { messageAuthorName, mirroredMessage } from '../../src/render/mirror.ts';
import { allTexts, assertMessageWithinLimits } from '../support/blockKit.ts';

const message = (over: Partial<Message> = {}): Message => ({
  id: 'msg_1',
  content: 'Lunch at **noon**?',
  author: { id: 'mbr_2', name: 'Grace Hopper', type: 'user' },
  ...over,
});

describe('mirroredMessage', () => {
  it('attributes the message to its author, content as mrkdwn', () => {
    const out = mirroredMessage(message());
    expect(allTexts(out.blocks)).toEqual(['*Grace Hopper*: Lunch at *noon*?']);
    expect(out.text).toBe('Grace Hopper: Lunch at noon?');
    assertMessageWithinLimits(out);
  });

  it('converts HTML content and escapes everything that could ping or link', () => {
    const out = mirroredMessage(
      message({ content: '<p>Hi <b>team</b> &lt;!channel&gt;</p>', author: { id: 'm', name: '<@U1> *x*' } }),
    );
    const [text] = allTexts(out.blocks);
    expect(text).toContain('Hi *team*');
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<@U1>');
    expect(out.text).not.toContain('<!channel>');
  });

  it('names an author without a name by id, and shows empty content plainly', () => {
    expect(messageAuthorName({ author: { id: 'mbr_9', name: ' ' } })).toBe('mbr_9');
    expect(messageAuthorName({ author: null })).toBe('Someone');
    expect(allTexts(mirroredMessage(message({ content: null })).blocks)).toEqual([
      '*Grace Hopper*: _(no text)_',
    ]);
  });

  it('cuts long messages to Slack limits', () => {
    assertMessageWithinLimits(mirroredMessage(message({ content: 'word '.repeat(5000) })));
  });
});
