/**
 * The help message: the slash command's subcommands (their lines handed in from the command's
 * table), one example each, the message shortcuts and the card buttons.
 */
import type { KnownBlock } from '@slack/types';
import { LIMITS, md, plain } from './limits.ts';
import { escapeMrkdwn } from './text.ts';

/** One line of the help: a syntax, what it does, and an example. */
export interface HelpLine {
  /** Syntax after the command, e.g. `post [#channel] <title> [| <content>]`. */
  syntax: string;
  description: string;
  example?: string;
}

export interface HelpEntry extends HelpLine {
  /** The subcommand as typed (first word after the command). */
  name: string;
}

export interface HelpGroup {
  title: string;
  entries: readonly HelpEntry[];
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

/** The help of the slash command, from its table (slack/listeners/commands/subcommands/). */
export function helpMessage(
  command: string,
  groups: readonly HelpGroup[],
): { text: string; blocks: KnownBlock[] } {
  const cmd = escapeMrkdwn(command.trim() || '/collab');
  const blocks: KnownBlock[] = [
    { type: 'header', text: plain(`${command.trim() || '/collab'} help`, LIMITS.headerText) },
    {
      type: 'context',
      elements: [md('`&lt;…&gt;` is required, `[…]` is optional. A post or thread is its id or its url.')],
    },
  ];
  for (const group of groups) {
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
  const names = [...new Set(groups.flatMap((group) => group.entries.map((entry) => entry.name)))];
  return {
    text: `How to use ${cmd}: ${cmd} ${names.join(', ')}`,
    blocks,
  };
}
