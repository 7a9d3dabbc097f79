import type { KnownBlock, View } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { INPUTS, VIEWS } from '../../src/render/ids.ts';
import {
  channelOptions,
  commentModal,
  createPostModal,
  parseChannelOption,
  resolveModal,
  suggestedTitle,
} from '../../src/render/modals.ts';
import { allTexts, assertViewWithinLimits } from '../support/blockKit.ts';

type Input = {
  type: 'input';
  block_id?: string;
  optional?: boolean;
  element: {
    type: string;
    action_id?: string;
    initial_value?: string;
    initial_option?: { value: string; text: { text: string } };
    min_query_length?: number;
    multiline?: boolean;
    max_length?: number;
    focus_on_load?: boolean;
  };
};

function inputs(view: View): Input[] {
  return (view.blocks as KnownBlock[]).filter((b): b is KnownBlock & Input => b.type === 'input') as Input[];
}

describe('createPostModal', () => {
  it('has title, content and channel inputs with our ids, in reading order, the title focused', () => {
    const view = createPostModal({ privateMetadata: '{"c":"C1"}' });
    expect(view).toMatchObject({
      type: 'modal',
      callback_id: VIEWS.createPost,
      private_metadata: '{"c":"C1"}',
    });
    const [title, content, channel] = inputs(view);
    expect(channel).toMatchObject({
      block_id: INPUTS.channel.block,
      element: { type: 'external_select', action_id: INPUTS.channel.action, min_query_length: 0 },
    });
    expect(channel?.element.initial_option).toBeUndefined();
    expect(title).toMatchObject({
      block_id: INPUTS.title.block,
      optional: true,
      element: { action_id: INPUTS.title.action, max_length: 250, focus_on_load: true },
    });
    expect(channel?.element.focus_on_load).toBeUndefined();
    expect(content).toMatchObject({
      block_id: INPUTS.content.block,
      element: { action_id: INPUTS.content.action, multiline: true, max_length: 3000 },
    });
    expect(content?.optional).toBeFalsy();
    expect(allTexts(view.blocks).some((t) => t.includes('Markdown works'))).toBe(true);
    assertViewWithinLimits(view);
  });

  it('fills initial values, cutting content to 3000', () => {
    const view = createPostModal({
      channel: { id: 'c-1', name: 'engineering' },
      title: 'Ship 2.3',
      content: 'x '.repeat(4000),
      privateMetadata: '',
    });
    const [title, content, channel] = inputs(view);
    expect(channel?.element.initial_option?.text.text).toBe('#engineering');
    expect(parseChannelOption(channel?.element.initial_option?.value ?? '')).toEqual({
      id: 'c-1',
      name: 'engineering',
    });
    expect(title?.element.initial_value).toBe('Ship 2.3');
    expect(content?.element.initial_value?.length).toBeLessThanOrEqual(3000);
    expect(content?.element.initial_value?.startsWith('x x')).toBe(true);
    assertViewWithinLimits(view);
  });

  it('suggests a title from the first line, without markup, cut with a visible …', () => {
    expect(suggestedTitle('\n\n## **Deploy** is [stuck](https://x.example)\nmore')).toBe('Deploy is stuck');
    expect(suggestedTitle('> quoted first')).toBe('quoted first');
    expect(suggestedTitle('Checkout fails :warning: for EU cards :+1::skin-tone-2:')).toBe(
      'Checkout fails for EU cards',
    );
    expect(suggestedTitle('   \n ')).toBeUndefined();
    const long = suggestedTitle('word '.repeat(200)) ?? '';
    expect(long.length).toBeLessThanOrEqual(250);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('commentModal', () => {
  it('shows the post and one multiline comment input', () => {
    const view = commentModal({
      post: {
        id: 'p-1',
        title: 'Ship 2.3',
        url: 'https://collab.test/p/1',
        content: 'Release notes <b>inside</b>',
      },
      postId: 'p-1',
      privateMetadata: 'meta',
    });
    expect(view).toMatchObject({ callback_id: VIEWS.createComment, private_metadata: 'meta' });
    const texts = allTexts(view.blocks);
    expect(texts).toContain('*<https://collab.test/p/1|Ship 2.3>*');
    expect(texts).toContain('Release notes inside');
    const [comment] = inputs(view);
    expect(comment).toMatchObject({
      block_id: INPUTS.comment.block,
      element: { action_id: INPUTS.comment.action, multiline: true },
    });
    assertViewWithinLimits(view);
  });

  it('names the post by id when it is not loaded', () => {
    const view = commentModal({ postId: 'p-<9>', privateMetadata: '' });
    expect(allTexts(view.blocks)).toContain('Post `p-&lt;9&gt;`');
    assertViewWithinLimits(view);
  });
});

describe('resolveModal', () => {
  it('has an optional resolution message', () => {
    const view = resolveModal({ postId: 'p-1', privateMetadata: '' });
    expect(view).toMatchObject({ callback_id: VIEWS.resolvePost });
    const [message] = inputs(view);
    expect(message).toMatchObject({
      block_id: INPUTS.resolution.block,
      optional: true,
      element: { action_id: INPUTS.resolution.action, multiline: true },
    });
    assertViewWithinLimits(view);
  });

  it('says which comment will resolve the post', () => {
    const view = resolveModal({
      postId: 'p-1',
      privateMetadata: '',
      comment: { id: 'cm-1', excerpt: 'Fixed by <@U1> & deployed' },
    });
    const texts = allTexts(view.blocks);
    expect(texts.some((t) => t.includes('This comment will be the resolving comment'))).toBe(true);
    expect(texts.some((t) => t.includes('Fixed by &lt;@U1&gt; &amp; deployed'))).toBe(true);
    expect(inputs(view)[0]?.optional).toBe(true);
    assertViewWithinLimits(view);
  });

  it('keeps titles within 24 characters', () => {
    for (const view of [
      createPostModal({ privateMetadata: '' }),
      commentModal({ postId: 'p', privateMetadata: '' }),
      resolveModal({ postId: 'p', privateMetadata: '' }),
    ]) {
      expect(view.type).toBe('modal');
      if (view.type === 'modal') expect(view.title.text.length).toBeLessThanOrEqual(24);
    }
  });
});

describe('channel options', () => {
  it('builds ≤ 100 options with text ≤ 75 and value ≤ 150', () => {
    const channels = Array.from({ length: 120 }, (_, i) => ({
      id: `c-${i}`,
      name: `channel ${i} ${'x'.repeat(i * 2)}`,
    }));
    const { options } = channelOptions(channels);
    expect(options).toHaveLength(100);
    for (const option of options) {
      expect(option.text.type).toBe('plain_text');
      expect(option.text.text.length).toBeLessThanOrEqual(75);
      expect(option.value.length).toBeLessThanOrEqual(150);
    }
    expect(options[0]).toEqual({
      text: { type: 'plain_text', text: '#channel 0' },
      value: '{"id":"c-0","name":"channel 0 "}',
    });
    expect(parseChannelOption(options[99]?.value ?? '')).toEqual({ id: 'c-99' });
  });

  it('parses values leniently', () => {
    expect(parseChannelOption('{"id":"c-1","name":"eng"}')).toEqual({ id: 'c-1', name: 'eng' });
    expect(parseChannelOption('c-1')).toEqual({ id: 'c-1' });
    expect(parseChannelOption('{broken')).toEqual({ id: '{broken' });
  });
});
