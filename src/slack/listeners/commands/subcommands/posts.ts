/** The subcommands of posts: write one, resolve it, reopen it, comment on it. */
import { TITLE_MAX } from '../../../../operations/limits.ts';
import type { ChannelRef, PostRef } from '../../../../operations/schemas.ts';
import { titleTooLongText } from '../../../../render/modals.ts';
import { subcommand } from '../subcommand.ts';
import { channelRef, isId, postRef, separatorIndex, unescapeSlack } from '../words.ts';

export const post = subcommand<
  { kind: 'postModal' } | { kind: 'post'; channel?: ChannelRef; title?: string; content: string }
>({
  name: 'post',
  help: [
    { syntax: 'post', description: 'open a form to write a post' },
    {
      syntax: 'post [#channel] <title> [| <content>]',
      description: 'post directly (to #channel, or the channel linked here)',
      example: 'post #engineering Ship 2.3 | Release notes are in the doc',
    },
  ],
  read(args) {
    if (args.length === 0) return { kind: 'postModal' };
    const channel = channelRef(args[0]!);
    const body = (channel ? args.slice(1) : args).join(' ');
    if (body.trim() === '') {
      return channel
        ? 'Write the post after the channel, or run the command with no text to open the form.'
        : { kind: 'postModal' };
    }
    const bar = separatorIndex(body);
    const title = bar >= 0 ? unescapeSlack(body.slice(0, bar)).trim() : undefined;
    const content = unescapeSlack(bar >= 0 ? body.slice(bar + 1) : body).trim();
    if (content === '') return 'The post has a title but no content: write it after the `|`.';
    if (title !== undefined && title.length > TITLE_MAX) return titleTooLongText(title.length);
    return { kind: 'post', ...(channel ? { channel } : {}), ...(title ? { title } : {}), content };
  },
  plan: {
    postModal: () => ({ answer: 'postForm' }),
    post: (command, origin) => ({
      operation: 'createPost',
      note: 'Creating the post…',
      data: {
        origin,
        ...(command.channel ? { channel: command.channel } : {}),
        ...(command.title ? { title: command.title } : {}),
        content: command.content,
      },
    }),
  },
});

export const resolve = subcommand<{ kind: 'resolve'; post: PostRef; message?: string }>({
  name: 'resolve',
  help: [
    {
      syntax: 'resolve <post> [message]',
      description: 'resolve a post (id or url)',
      example: 'resolve 1042 Shipped in 2.3',
    },
  ],
  read(args) {
    const post = postRef(args[0]);
    if (!post) return 'Name the post to resolve: its id or its url.';
    const message = unescapeSlack(args.slice(1).join(' ')).trim();
    return { kind: 'resolve', post, ...(message ? { message } : {}) };
  },
  plan: {
    resolve: (command, origin) => ({
      operation: 'resolvePost',
      note: 'Resolving the post…',
      data: { origin, post: command.post, ...(command.message ? { message: command.message } : {}) },
    }),
  },
});

export const unresolve = subcommand<{ kind: 'unresolve'; post: PostRef }>({
  name: 'unresolve',
  aliases: ['reopen'],
  help: [{ syntax: 'unresolve <post>', description: 'reopen it (alias: reopen)', example: 'reopen 1042' }],
  read(args) {
    const post = postRef(args[0]);
    if (!post) return 'Name the post to reopen: its id or its url.';
    if (args.length > 1) return 'Reopening takes only the post; there is no message to add.';
    return { kind: 'unresolve', post };
  },
  plan: {
    unresolve: (command, origin) => ({
      operation: 'unresolvePost',
      note: 'Reopening the post…',
      data: { origin, post: command.post },
    }),
  },
});

export const reply = subcommand<{ kind: 'reply'; post: PostRef; parentId?: string; text: string }>({
  name: 'reply',
  help: [
    {
      syntax: 'reply <post> [parent:<comment>] <text>',
      description: 'comment on a post',
      example: 'reply 1042 parent:77 Agreed, let us ship it',
    },
  ],
  read(args) {
    const post = postRef(args[0]);
    if (!post) return 'Name the post to comment on: its id or its url.';
    let words = args.slice(1);
    let parentId: string | undefined;
    const parent = words[0]?.match(/^parent:(.+)$/i);
    if (parent) {
      parentId = parent[1];
      words = words.slice(1);
      if (!parentId || !isId(parentId)) return '`parent:` needs a comment id.';
    }
    const text = unescapeSlack(words.join(' ')).trim();
    if (text === '') return 'Write the comment after the post.';
    return { kind: 'reply', post, ...(parentId ? { parentId } : {}), text };
  },
  plan: {
    reply: (command, origin) => ({
      operation: 'createComment',
      note: 'Adding your comment…',
      data: {
        origin,
        post: command.post,
        ...(command.parentId ? { parentId: command.parentId } : {}),
        text: command.text,
      },
    }),
  },
});
