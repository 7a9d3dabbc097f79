/**
 * Modals: write a post, comment on a post, resolve a post; and the options of the collaboration
 * channel picker. Block and action ids come from ids.ts, where the listeners read them back.
 */
import type { KnownBlock, ModalView, PlainTextOption, View } from '@slack/types';
import type { Channel, Post } from '../collab/schemas.ts';
import { TITLE_MAX } from '../operations/limits.ts';
import { contentPlain } from './content.ts';
import { cutPlain } from './cut.ts';
import { INPUTS, VIEWS } from './ids.ts';
import { channelMrkdwn, postAuthorMrkdwn } from './labels.ts';
import { LIMITS, md, plain } from './limits.ts';
import { postTitleMrkdwn } from './postCard.ts';
import { escapeMrkdwn, oneLine } from './text.ts';

/** Characters of a post's content shown above the input of a comment or resolve modal. */
const CONTEXT_EXCERPT_MAX = 280;

const MARKDOWN_HINT = 'Markdown works: **bold**, _italic_, [links](https://example.com), lists and `code`.';

function modal(
  view: Omit<ModalView, 'type' | 'title' | 'submit' | 'close'> & {
    title: string;
    submit: string;
    close?: string;
  },
): View {
  return {
    ...view,
    type: 'modal',
    title: plain(view.title, LIMITS.modalTitle),
    submit: plain(view.submit, LIMITS.modalButton),
    close: plain(view.close ?? 'Cancel', LIMITS.modalButton),
  };
}

/** The option value of a channel: `{"id","name"}` when it fits in 150 characters, else the id. */
export function channelOptionValue(channel: Channel): string {
  const json = JSON.stringify({ id: channel.id, name: channel.name });
  return json.length <= LIMITS.optionValue ? json : channel.id;
}

export function parseChannelOption(value: string): { id: string; name?: string } {
  if (value.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === 'object' && parsed !== null) {
        const { id, name } = parsed as { id?: unknown; name?: unknown };
        if (typeof id === 'string' && id !== '') return typeof name === 'string' ? { id, name } : { id };
      }
    } catch {
      // not JSON after all: an id that starts with a brace
    }
  }
  return { id: value };
}

function channelOption(channel: Channel): PlainTextOption {
  const name = oneLine(channel.name ?? '') || channel.id;
  return { text: plain(`#${name.replace(/^#/, '')}`, LIMITS.optionText), value: channelOptionValue(channel) };
}

/** Options of the external select of collaboration channels (≤ 100; ids too long to send are left out). */
export function channelOptions(channels: Channel[]): {
  options: Array<{ text: { type: 'plain_text'; text: string }; value: string }>;
} {
  const options = channels
    .filter((channel) => channel.id !== '' && channelOptionValue(channel).length <= LIMITS.optionValue)
    .slice(0, LIMITS.options)
    .map(channelOption)
    .map((option) => ({
      text: { type: 'plain_text' as const, text: option.text.text },
      value: option.value ?? '',
    }));
  return { options };
}

export interface CreatePostModalOptions {
  channel?: { id: string; name: string };
  title?: string;
  content?: string;
  privateMetadata: string;
}

/** The answer to a title over {@link TITLE_MAX}: said, never cut silently. */
export function titleTooLongText(length: number): string {
  return `A title holds at most ${TITLE_MAX.toLocaleString('en')} characters; this one has ${length.toLocaleString('en')}. Put the rest in the content.`;
}

/**
 * A title suggested from text (markdown): its first line without markup, cut to
 * {@link TITLE_MAX} with a visible `…`; undefined when there is no text.
 */
export function suggestedTitle(markdown: string): string | undefined {
  const first = markdown
    .split('\n')
    .map((line) =>
      line
        .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/^\s*(?:#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/, '')
        .replace(/(\*\*|__|~~|`)/g, '')
        // Slack's emoji codes mean nothing in the service's title.
        .replace(/:[a-z0-9_+'-]+:(?::skin-tone-[2-6]:)?/g, '')
        .trim(),
    )
    .find((line) => line !== '');
  return first === undefined ? undefined : cutPlain(oneLine(first), TITLE_MAX);
}

/**
 * The post form, in reading order: title (focused as it opens), content, then the channel — so
 * the channel picker never opens its list over the fields as the form appears.
 */
export function createPostModal(options: CreatePostModalOptions): View {
  const max = LIMITS.plainTextInputMaxLength;
  const blocks: KnownBlock[] = [
    {
      type: 'input',
      block_id: INPUTS.title.block,
      optional: true,
      label: plain('Title', LIMITS.inputLabel),
      element: {
        type: 'plain_text_input',
        action_id: INPUTS.title.action,
        max_length: TITLE_MAX,
        focus_on_load: true,
        placeholder: plain('What is it about?', LIMITS.placeholder),
        ...(options.title?.trim() ? { initial_value: cutPlain(oneLine(options.title), TITLE_MAX) } : {}),
      },
    },
    {
      type: 'input',
      block_id: INPUTS.content.block,
      label: plain('Content', LIMITS.inputLabel),
      hint: plain(MARKDOWN_HINT, LIMITS.inputHint),
      element: {
        type: 'plain_text_input',
        action_id: INPUTS.content.action,
        multiline: true,
        min_length: 1,
        max_length: max,
        ...(options.content?.trim() ? { initial_value: cutPlain(options.content, max) } : {}),
      },
    },
    {
      type: 'input',
      block_id: INPUTS.channel.block,
      optional: true,
      label: plain('Channel', LIMITS.inputLabel),
      hint: plain('The collaboration channel to post in. Type to search.', LIMITS.inputHint),
      element: {
        type: 'external_select',
        action_id: INPUTS.channel.action,
        min_query_length: 0,
        placeholder: plain('Choose a channel', LIMITS.placeholder),
        ...(options.channel ? { initial_option: channelOption(options.channel) } : {}),
      },
    },
  ];
  return modal({
    callback_id: VIEWS.createPost,
    private_metadata: options.privateMetadata,
    title: 'New post',
    submit: 'Post',
    blocks,
  });
}

/** A context block naming the post (title link, channel, author, excerpt). */
function postContext(post: Post | undefined, postId: string): KnownBlock[] {
  if (!post) return [{ type: 'context', elements: [md(`Post \`${escapeMrkdwn(oneLine(postId))}\``)] }];
  const facts = [channelMrkdwn(post.channel), post.author ? postAuthorMrkdwn(post) : undefined]
    .filter(Boolean)
    .join(' · ');
  const excerpt = contentPlain(post.content);
  const blocks: KnownBlock[] = [
    { type: 'section', text: md(`${postTitleMrkdwn(post)}${facts ? `\n${facts}` : ''}`) },
  ];
  if (excerpt && oneLine(post.title ?? '')) {
    blocks.push({
      type: 'context',
      elements: [plain(cutPlain(excerpt, CONTEXT_EXCERPT_MAX), LIMITS.contextText)],
    });
  }
  return blocks;
}

export interface CommentModalOptions {
  post?: Post;
  postId: string;
  privateMetadata: string;
}

export function commentModal(options: CommentModalOptions): View {
  return modal({
    callback_id: VIEWS.createComment,
    private_metadata: options.privateMetadata,
    title: 'Comment on post',
    submit: 'Comment',
    blocks: [
      ...postContext(options.post, options.postId),
      {
        type: 'input',
        block_id: INPUTS.comment.block,
        label: plain('Your comment', LIMITS.inputLabel),
        hint: plain(MARKDOWN_HINT, LIMITS.inputHint),
        element: {
          type: 'plain_text_input',
          action_id: INPUTS.comment.action,
          multiline: true,
          min_length: 1,
          max_length: LIMITS.plainTextInputMaxLength,
        },
      },
    ],
  });
}

export interface ResolveModalOptions {
  post?: Post;
  postId: string;
  privateMetadata: string;
  /** The comment that will be the resolving comment (from the "Resolve post" shortcut on a reply). */
  comment?: { id: string; excerpt: string };
}

export function resolveModal(options: ResolveModalOptions): View {
  const blocks: KnownBlock[] = [...postContext(options.post, options.postId)];
  if (options.comment) {
    const excerpt = cutPlain(oneLine(options.comment.excerpt), 500);
    blocks.push({
      type: 'section',
      text: md(
        `:speech_balloon: This comment will be the resolving comment:\n>${escapeMrkdwn(excerpt) || '_(no text)_'}`,
      ),
    });
  }
  blocks.push({
    type: 'input',
    block_id: INPUTS.resolution.block,
    optional: true,
    label: plain(options.comment ? 'Message (optional)' : 'Resolution message (optional)', LIMITS.inputLabel),
    hint: plain(
      options.comment
        ? 'The comment above already explains the resolution; add a message only if it helps.'
        : `What was decided? Leave empty to resolve without a message. ${MARKDOWN_HINT}`,
      LIMITS.inputHint,
    ),
    element: {
      type: 'plain_text_input',
      action_id: INPUTS.resolution.action,
      multiline: true,
      max_length: LIMITS.plainTextInputMaxLength,
    },
  });
  return modal({
    callback_id: VIEWS.resolvePost,
    private_metadata: options.privateMetadata,
    title: 'Resolve post',
    submit: 'Resolve',
    blocks,
  });
}
