/**
 * The grammar of the slash command, as a pure parser: text in, a command or a worded error out.
 * Slack sends mentions escaped (the manifest sets `should_escape: true`): users as `<@U123|name>`,
 * channels as `<#C123|name>`, links as `<https://…|label>`. A collaboration channel is named
 * `#name`; a post by id or by a url the bot has seen; a thread by id.
 */

import type { PostFilters } from '../../../collab/postFilters.ts';
import { MEMBER_ROLES, type MemberRole } from '../../../collab/schemas.ts';
import { TEXT_MAX, TITLE_MAX } from '../../../operations/limits.ts';
import { canonicalTimeZone, parseSchedule } from '../../../operations/schedule.ts';
import type { ChannelRef, PostRef } from '../../../operations/schemas.ts';
import { HELP_SUBCOMMANDS, syntaxOf } from '../../../render/help.ts';
import { titleTooLongText } from '../../../render/modals.ts';
import { filtersStart, parseFilters } from './filters.ts';

export type Command =
  | { kind: 'help' }
  | { kind: 'postModal' }
  | { kind: 'post'; channel?: ChannelRef; title?: string; content: string }
  | { kind: 'resolve'; post: PostRef; message?: string }
  | { kind: 'unresolve'; post: PostRef }
  | { kind: 'reply'; post: PostRef; parentId?: string; text: string }
  | { kind: 'dm'; slackUserIds: string[]; text: string }
  | { kind: 'dmThread'; threadId: string; text: string }
  | { kind: 'posts'; channel?: ChannelRef; unresolvedOnly: boolean }
  | { kind: 'channels'; name?: string }
  | { kind: 'members'; search?: string; roles?: MemberRole[] }
  | { kind: 'thread'; threadId: string }
  | { kind: 'link'; channel: ChannelRef; bridgeReplies: boolean }
  | { kind: 'unlink' }
  | { kind: 'follow'; filters?: PostFilters }
  | { kind: 'followList' }
  | { kind: 'notify'; on: boolean }
  | { kind: 'unfollow' }
  | { kind: 'digestAdd'; pattern: string; label: string; tz?: string; filters?: PostFilters }
  | { kind: 'digestList' }
  | { kind: 'digestRemove'; digestId: string }
  | { kind: 'digestRun' };

export type ParseResult = { ok: true; command: Command } | { ok: false; error: string; usage?: string };

/** A command read, with the words after its subcommand (and a digest's action) as typed: what an audit records. */
export interface ReadCommand {
  parsed: ParseResult;
  detail: string;
}

/** The subcommands, aliases included: the help's table (render/help.ts) is the one list. */
export const SUBCOMMANDS = HELP_SUBCOMMANDS;

/**
 * The usage of a subcommand, for its errors: the syntax lines of the help's table, so what an
 * error shows and what the help shows are one text.
 */
export function usage(command: string, sub: string): string {
  const lines = syntaxOf(sub).map((syntax) => `${command} ${syntax}`);
  return lines.length > 0 ? lines.join('   or   ') : `${command} help`;
}

const MAX_DM_PEOPLE = 20;
const ID_MAX = 200;

export function parseCommand(rawText: string, command = '/collab'): ParseResult {
  return readCommand(rawText, command).parsed;
}

export function readCommand(rawText: string, command = '/collab'): ReadCommand {
  const text = rawText.replace(/\s+/g, ' ').trim();
  if (text === '') return { parsed: { ok: true, command: { kind: 'help' } }, detail: '' };
  if (text.length > TEXT_MAX) {
    return {
      parsed: {
        ok: false,
        error: `That is ${text.length.toLocaleString('en')} characters; the limit is ${TEXT_MAX.toLocaleString('en')}. Shorten it, or use \`${command} post\` with no text to write in a form.`,
      },
      detail: '',
    };
  }
  const [head = '', ...args] = text.split(' ');
  const detail = (head.toLowerCase() === 'digest' ? args.slice(1) : args).join(' ');
  return { parsed: readWords(head, args, command), detail };
}

/** The command its words say: `head` the subcommand as typed, `args` the words after it. */
function readWords(head: string, args: string[], command: string): ParseResult {
  const sub = head.toLowerCase();
  const fail = (error: string): ParseResult => ({ ok: false, error, usage: usage(command, sub) });

  switch (sub) {
    case 'help':
    case '?':
      return { ok: true, command: { kind: 'help' } };

    case 'post': {
      if (args.length === 0) return { ok: true, command: { kind: 'postModal' } };
      const channel = channelRef(args[0]!);
      const body = (channel ? args.slice(1) : args).join(' ');
      if (body.trim() === '') {
        return channel
          ? fail('Write the post after the channel, or run the command with no text to open the form.')
          : { ok: true, command: { kind: 'postModal' } };
      }
      const bar = separatorIndex(body);
      const title = bar >= 0 ? unescapeSlack(body.slice(0, bar)).trim() : undefined;
      const content = unescapeSlack(bar >= 0 ? body.slice(bar + 1) : body).trim();
      if (content === '') return fail('The post has a title but no content: write it after the `|`.');
      if (title !== undefined && title.length > TITLE_MAX) return fail(titleTooLongText(title.length));
      return {
        ok: true,
        command: {
          kind: 'post',
          ...(channel ? { channel } : {}),
          ...(title ? { title } : {}),
          content,
        },
      };
    }

    case 'resolve': {
      const post = postRef(args[0]);
      if (!post) return fail('Name the post to resolve: its id or its url.');
      const message = unescapeSlack(args.slice(1).join(' ')).trim();
      return { ok: true, command: { kind: 'resolve', post, ...(message ? { message } : {}) } };
    }

    case 'unresolve':
    case 'reopen': {
      const post = postRef(args[0]);
      if (!post) return fail('Name the post to reopen: its id or its url.');
      if (args.length > 1) return fail('Reopening takes only the post; there is no message to add.');
      return { ok: true, command: { kind: 'unresolve', post } };
    }

    case 'reply': {
      const post = postRef(args[0]);
      if (!post) return fail('Name the post to comment on: its id or its url.');
      let words = args.slice(1);
      let parentId: string | undefined;
      const parent = words[0]?.match(/^parent:(.+)$/i);
      if (parent) {
        parentId = parent[1];
        words = words.slice(1);
        if (!parentId || parentId.length > ID_MAX) return fail('`parent:` needs a comment id.');
      }
      const body = unescapeSlack(words.join(' ')).trim();
      if (body === '') return fail('Write the comment after the post.');
      return { ok: true, command: { kind: 'reply', post, ...(parentId ? { parentId } : {}), text: body } };
    }

    case 'dm': {
      const people: string[] = [];
      let i = 0;
      for (; i < args.length; i++) {
        const user = args[i]!.match(/^<@([UW][A-Z0-9]+)(\|[^>]*)?>$/);
        if (!user) break;
        if (!people.includes(user[1]!)) people.push(user[1]!);
      }
      const body = unescapeSlack(args.slice(i).join(' ')).trim();
      if (people.length > 0) {
        if (people.length > MAX_DM_PEOPLE) return fail(`Message at most ${MAX_DM_PEOPLE} people at once.`);
        if (body === '') return fail('Write the message after the people.');
        return { ok: true, command: { kind: 'dm', slackUserIds: people, text: body } };
      }
      const first = args[0];
      if (first === undefined) return fail('Say who to message: mention them with @, or give a thread id.');
      if (first.startsWith('@')) {
        return fail(
          `\`${first}\` is not a Slack mention. Pick people from the @ list so Slack turns them into mentions.`,
        );
      }
      if (!isId(first)) return fail('Say who to message: mention them with @, or give a thread id.');
      const threadText = unescapeSlack(args.slice(1).join(' ')).trim();
      if (threadText === '') return fail('Write the message after the thread id.');
      return { ok: true, command: { kind: 'dmThread', threadId: first, text: threadText } };
    }

    case 'posts': {
      let channel: ChannelRef | undefined;
      let unresolvedOnly = false;
      for (const word of args) {
        const ref = channelRef(word);
        if (ref && !channel) channel = ref;
        else if (/^(unresolved|open)$/i.test(word)) unresolvedOnly = true;
        else return fail(`I did not understand \`${word}\`.`);
      }
      return { ok: true, command: { kind: 'posts', ...(channel ? { channel } : {}), unresolvedOnly } };
    }

    case 'channels': {
      const name = unescapeSlack(args.join(' ')).replace(/^#/, '').trim();
      return { ok: true, command: { kind: 'channels', ...(name ? { name } : {}) } };
    }

    case 'members': {
      let roles: MemberRole[] | undefined;
      const words: string[] = [];
      for (const word of args) {
        const role = word.match(/^roles?:(.*)$/i);
        if (!role) {
          words.push(word);
          continue;
        }
        const asked = role[1]!
          .split(',')
          .map((r) => r.trim().toLowerCase())
          .filter(Boolean);
        const unknown = asked.filter((r) => !(MEMBER_ROLES as readonly string[]).includes(r));
        if (asked.length === 0 || unknown.length > 0) {
          return fail(
            `Roles are ${MEMBER_ROLES.join(', ')}${unknown.length ? `; not ${unknown.join(', ')}` : ''}.`,
          );
        }
        roles = [...new Set([...(roles ?? []), ...(asked as MemberRole[])])];
      }
      const search = unescapeSlack(words.join(' ')).trim();
      return {
        ok: true,
        command: { kind: 'members', ...(search ? { search } : {}), ...(roles ? { roles } : {}) },
      };
    }

    case 'thread': {
      const threadId = args[0];
      if (!threadId || !isId(threadId)) return fail('Name the thread: its id.');
      if (args.length > 1) return fail('`thread` takes only the thread id.');
      return { ok: true, command: { kind: 'thread', threadId } };
    }

    case 'link': {
      const channel = args[0] ? channelRef(args[0]) : undefined;
      if (!channel) return fail('Name the collaboration channel to link, with a #: `#engineering`.');
      const tail = args.slice(1).join(' ').toLowerCase();
      if (tail !== '' && !/^(with )?(replies|comments)$/.test(tail)) {
        return fail(`I did not understand \`${args.slice(1).join(' ')}\`. Add \`with replies\` or nothing.`);
      }
      return { ok: true, command: { kind: 'link', channel, bridgeReplies: tail !== '' } };
    }

    case 'unlink':
      if (args.length > 0) return fail('`unlink` takes nothing: it removes the link of this Slack channel.');
      return { ok: true, command: { kind: 'unlink' } };

    case 'follow': {
      if (args.length === 0) return { ok: true, command: { kind: 'follow' } };
      if (args.length === 1 && args[0]!.toLowerCase() === 'list')
        return { ok: true, command: { kind: 'followList' } };
      const parsed = parseFilters(args.join(' '));
      if (!parsed.ok) return fail(parsed.error);
      return { ok: true, command: { kind: 'follow', filters: parsed.filters } };
    }

    case 'notify': {
      const value = args.length === 1 ? args[0]!.toLowerCase() : '';
      if (value !== 'on' && value !== 'off') {
        return fail(
          'Say `notify on` to hear by DM when your posts are commented on or resolved, or `notify off`.',
        );
      }
      return { ok: true, command: { kind: 'notify', on: value === 'on' } };
    }

    case 'unfollow':
      if (args.length > 0) return fail('`unfollow` takes nothing: this Slack channel stops following.');
      return { ok: true, command: { kind: 'unfollow' } };

    case 'digest':
      return parseDigest(args, fail);

    default: {
      const guess = closest(sub);
      return {
        ok: false,
        error: `I don't know \`${head}\`.${guess ? ` Did you mean \`${command} ${guess}\`?` : ''} See \`${command} help\` for everything I can do.`,
      };
    }
  }
}

/**
 * `digest add <schedule> [in <time zone>]`, `digest list`, `digest remove <id>`, `digest run`.
 * The schedule is read here (words or cron, cron.ts), so a mistake is answered at once.
 */
function parseDigest(args: string[], fail: (error: string) => ParseResult): ParseResult {
  const [action = '', ...rest] = args;
  switch (action.toLowerCase()) {
    case 'add': {
      let words = rest.join(' ').trim();
      let filters: PostFilters | undefined;
      const from = filtersStart(words);
      if (from >= 0) {
        const parsed = parseFilters(words.slice(from));
        if (!parsed.ok) return fail(parsed.error);
        filters = parsed.filters;
        words = words.slice(0, from).trim();
      }
      let tz: string | undefined;
      const zone = /\s+in\s+(\S+)$/i.exec(words);
      if (zone) {
        tz = canonicalTimeZone(zone[1]!);
        if (!tz)
          return fail(`\`${zone[1]}\` is not a time zone I know: use an IANA name such as \`Europe/Paris\`.`);
        words = words.slice(0, zone.index).trim();
      }
      const schedule = parseSchedule(words);
      if (!schedule.ok) return fail(schedule.error);
      return {
        ok: true,
        command: {
          kind: 'digestAdd',
          pattern: schedule.pattern,
          label: schedule.label,
          ...(tz ? { tz } : {}),
          ...(filters ? { filters } : {}),
        },
      };
    }
    case 'list':
    case '':
      if (rest.length > 0) return fail('`digest list` takes nothing.');
      return { ok: true, command: { kind: 'digestList' } };
    case 'remove':
    case 'delete': {
      const digestId = rest[0];
      if (!digestId || rest.length > 1 || !isId(digestId))
        return fail('Name the digest to remove: its id, e.g. `d1` (see `digest list`).');
      return { ok: true, command: { kind: 'digestRemove', digestId } };
    }
    case 'run':
    case 'now':
      if (rest.length > 0) return fail('`digest run` takes nothing: it posts this channel’s digest now.');
      return { ok: true, command: { kind: 'digestRun' } };
    default:
      return fail(`\`digest ${action}\` is not something I know: use add, list, remove or run.`);
  }
}

/** The first `|` outside Slack markup (`<@U1|name>` and `<url|label>` carry their own). */
function separatorIndex(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '<') depth++;
    else if (c === '>' && depth > 0) depth--;
    else if (c === '|' && depth === 0) return i;
  }
  return -1;
}

/** `#name`, or a Slack channel mention `<#C123|name>` read as the name of a collaboration channel. */
function channelRef(word: string): ChannelRef | undefined {
  const mention = word.match(/^<#[CG][A-Z0-9]+\|([^>]+)>$/);
  if (mention) return { name: mention[1]! };
  const hash = word.match(/^#([^\s#<>]{1,200})$/);
  if (hash) return { name: hash[1]! };
  return undefined;
}

function postRef(word: string | undefined): PostRef | undefined {
  if (word === undefined || word === '') return undefined;
  const link = word.match(/^<(https?:\/\/[^|>]+)(\|[^>]*)?>$/);
  if (link) return { url: link[1]! };
  if (/^https?:\/\//.test(word)) return { url: word };
  return isId(word) ? { id: word } : undefined;
}

/** Ids are opaque: anything without spaces or Slack markup, of a sane length. */
function isId(word: string): boolean {
  return word.length <= ID_MAX && !/[<>|\s]/.test(word);
}

/** Slack escapes `&`, `<`, `>` in command text; our own text goes out as markdown, unescaped. */
function unescapeSlack(text: string): string {
  return text
    .replace(/<(https?:\/\/[^|>]+)\|([^>]+)>/g, '[$2]($1)')
    .replace(/<(https?:\/\/[^|>]+)>/g, '$1')
    .replace(/<@([UW][A-Z0-9]+)\|([^>]+)>/g, '@$2')
    .replace(/<#[CG][A-Z0-9]+\|([^>]+)>/g, '#$1')
    .replace(/<!(here|channel|everyone)>/g, '@$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function closest(word: string): string | undefined {
  let best: { sub: string; d: number } | undefined;
  for (const sub of SUBCOMMANDS) {
    const d = distance(word, sub);
    if (d <= 2 && (!best || d < best.d)) best = { sub, d };
  }
  return best?.sub;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}
