/**
 * The pieces of the slash command's words. Slack sends mentions escaped (the manifest sets
 * `should_escape: true`): users as `<@U123|name>`, channels as `<#C123|name>`, links as
 * `<https://…|label>`. A collaboration channel is named `#name`; a post by id or by a url the
 * bot has seen; a thread by id.
 */
import type { ChannelRef, PostRef } from '../../../operations/schemas.ts';

export const ID_MAX = 200;

/** The first `|` outside Slack markup (`<@U1|name>` and `<url|label>` carry their own). */
export function separatorIndex(text: string): number {
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
export function channelRef(word: string): ChannelRef | undefined {
  const mention = word.match(/^<#[CG][A-Z0-9]+\|([^>]+)>$/);
  if (mention) return { name: mention[1]! };
  const hash = word.match(/^#([^\s#<>]{1,200})$/);
  if (hash) return { name: hash[1]! };
  return undefined;
}

export function postRef(word: string | undefined): PostRef | undefined {
  if (word === undefined || word === '') return undefined;
  const link = word.match(/^<(https?:\/\/[^|>]+)(\|[^>]*)?>$/);
  if (link) return { url: link[1]! };
  if (/^https?:\/\//.test(word)) return { url: word };
  return isId(word) ? { id: word } : undefined;
}

/**
 * Ids are opaque: anything without spaces or Slack markup, of a sane length; but never `.` or
 * `..`, which name no object and, in a URL path, another path (`/v2/posts/..` is `/v2`).
 */
export function isId(word: string): boolean {
  return word.length <= ID_MAX && !/[<>|\s]/.test(word) && word !== '.' && word !== '..';
}

/** Slack escapes `&`, `<`, `>` in command text; our own text goes out as markdown, unescaped. */
export function unescapeSlack(text: string): string {
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
