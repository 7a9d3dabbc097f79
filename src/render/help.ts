/**
 * The help message: the slash command's grammar, one example each, the message shortcuts and
 * the card buttons. The grammar is the contract the command listeners implement.
 */
import type { KnownBlock } from '@slack/types';
import { LIMITS, md, plain } from './limits.ts';
import { escapeMrkdwn } from './text.ts';

export interface HelpEntry {
  /** The subcommand as typed (first word after the command). */
  name: string;
  /** Syntax after the command, e.g. `post [#channel] <title> [| <content>]`. */
  syntax: string;
  description: string;
  example?: string;
  /** Other names the parser takes for this subcommand, e.g. `reopen` for `unresolve`. */
  aliases?: readonly string[];
}

export interface HelpGroup {
  title: string;
  entries: HelpEntry[];
}

export const HELP_GROUPS: readonly HelpGroup[] = [
  {
    title: ':memo: Posts',
    entries: [
      { name: 'post', syntax: 'post', description: 'open a form to write a post' },
      {
        name: 'post',
        syntax: 'post [#channel] <title> [| <content>]',
        description: 'post directly (to #channel, or the channel linked here)',
        example: 'post #engineering Ship 2.3 | Release notes are in the doc',
      },
      {
        name: 'resolve',
        syntax: 'resolve <post> [message]',
        description: 'resolve a post (id or url)',
        example: 'resolve 1042 Shipped in 2.3',
      },
      {
        name: 'unresolve',
        syntax: 'unresolve <post>',
        description: 'reopen it (alias: reopen)',
        aliases: ['reopen'],
        example: 'reopen 1042',
      },
      {
        name: 'reply',
        syntax: 'reply <post> [parent:<comment>] <text>',
        description: 'comment on a post',
        example: 'reply 1042 parent:77 Agreed, let us ship it',
      },
    ],
  },
  {
    title: ':speech_balloon: Messages',
    entries: [
      {
        name: 'dm',
        syntax: 'dm @someone [@other …] <text>',
        description: 'message people through a chat thread',
        example: 'dm @ada @grace Can you review the draft today?',
      },
      {
        name: 'dm',
        syntax: 'dm <thread> <text>',
        description: 'message an existing thread',
        example: 'dm 5531 Draft is ready',
      },
      {
        name: 'thread',
        syntax: 'thread <thread>',
        description: "show a thread's messages",
        example: 'thread 5531',
      },
    ],
  },
  {
    title: ':mag: Browse',
    entries: [
      {
        name: 'posts',
        syntax: 'posts [#channel] [unresolved]',
        description: 'list posts',
        example: 'posts #engineering unresolved',
      },
      { name: 'channels', syntax: 'channels [name]', description: 'list channels', example: 'channels eng' },
      {
        name: 'members',
        syntax: 'members [query] [role:admin,guest]',
        description: 'list members',
        example: 'members ada role:admin',
      },
    ],
  },
  {
    title: ':link: Link this Slack channel',
    entries: [
      {
        name: 'link',
        syntax: 'link #channel [with replies]',
        description:
          'link this Slack channel to a collaboration channel (replies in card threads become comments)',
        example: 'link #engineering with replies',
      },
      { name: 'unlink', syntax: 'unlink', description: 'remove the link' },
      {
        name: 'follow',
        syntax: 'follow [unresolved] [no-apps] [with "word"] [without "word"]',
        description:
          'post a card here for each new post of the linked channel, and update cards (with a note in their thread) when posts are resolved, reopened or commented. Filters: only unresolved posts, none by integrations, title or content with / without words. Run it again to change them (the feed keeps its place); `follow all` clears them',
        example: 'follow unresolved no-apps without "wip"',
      },
      { name: 'follow', syntax: 'follow list', description: 'the followed channels and their filters' },
      {
        name: 'notify',
        syntax: 'notify on|off',
        description:
          'hear by DM when your posts (made from Slack, or written by you in the service) are commented on or resolved; quiet 22:00–08:00 in your time zone',
      },
      { name: 'unfollow', syntax: 'unfollow', description: 'stop following the linked channel' },
      { name: 'help', syntax: 'help', description: 'this help' },
    ],
  },
  {
    title: ':newspaper: Digests',
    entries: [
      {
        name: 'digest',
        syntax: 'digest add <schedule> [in <time zone>] [filters, as follow’s]',
        description:
          'post a digest here on a schedule (words or cron; your Slack time zone unless you name one): new, resolved, most active and still unresolved posts of the linked channel (all channels when not linked)',
        example: 'digest add every weekday at 9:00 in Europe/Paris',
      },
      { name: 'digest', syntax: 'digest list', description: 'this channel’s digests and their next run' },
      {
        name: 'digest',
        syntax: 'digest remove <id>',
        description: 'remove a digest',
        example: 'digest remove d1',
      },
      { name: 'digest', syntax: 'digest run', description: 'post this channel’s digest now' },
    ],
  },
];

/** Every subcommand the grammar knows, aliases included: the parser knows these and no others. */
export const HELP_SUBCOMMANDS: readonly string[] = [
  ...new Set(HELP_GROUPS.flatMap((g) => g.entries.flatMap((e) => [e.name, ...(e.aliases ?? [])]))),
];

/** The syntax lines of a subcommand (or of the one it is an alias of), as the help shows them. */
export function syntaxOf(sub: string): string[] {
  const entries = HELP_GROUPS.flatMap((g) => g.entries);
  const name = entries.find((e) => e.name === sub || e.aliases?.includes(sub))?.name;
  return entries.filter((e) => e.name === name).map((e) => e.syntax);
}

const SHORTCUTS_TEXT = [
  '*:zap: Shortcuts*',
  '• *New post* (the composer’s shortcuts menu, anywhere): opens the post form',
  'On a message’s ⋮ menu:',
  '• *Create post from message*: turns a Slack message into a post, with a link back to Slack',
  '• *Create post from thread*: the same with every reply of the thread, each with its author and a link',
  '• *Comment on post*: comments on the post a card or a card thread shows',
  '• *Resolve post*: resolves that post; on a reply that became a comment, that comment resolves it',
].join('\n');

const BUTTONS_TEXT = [
  '*:card_index: Post cards*',
  '• *Resolve* / *Reopen*: changes the post’s state',
  '• *Comment*: opens a form to comment',
  '• *Open*: opens the post in the collaboration service',
].join('\n');

export function helpMessage(command: string): { text: string; blocks: KnownBlock[] } {
  const cmd = escapeMrkdwn(command.trim() || '/collab');
  const blocks: KnownBlock[] = [
    { type: 'header', text: plain(`${command.trim() || '/collab'} help`, LIMITS.headerText) },
    {
      type: 'context',
      elements: [md('`&lt;…&gt;` is required, `[…]` is optional. A post or thread is its id or its url.')],
    },
  ];
  for (const group of HELP_GROUPS) {
    const lines = group.entries.map((entry) => {
      const example = entry.example ? `\n      _e.g._ \`${cmd} ${escapeMrkdwn(entry.example)}\`` : '';
      return `\`${cmd} ${escapeMrkdwn(entry.syntax)}\`  ${escapeMrkdwn(entry.description)}${example}`;
    });
    blocks.push({ type: 'divider' }, { type: 'section', text: md(`*${group.title}*\n${lines.join('\n')}`) });
  }
  blocks.push(
    { type: 'divider' },
    { type: 'section', text: md(SHORTCUTS_TEXT) },
    { type: 'section', text: md(BUTTONS_TEXT) },
  );
  return {
    text: `How to use ${cmd}: ${cmd} post, resolve, reply, dm, posts, channels, members, link, follow, help`,
    blocks,
  };
}
