/**
 * The service's content conversion: the markdown written through the API is stored and answered
 * as HTML (SERVICE-FACTS.md). Markdown is parsed by marked (CommonMark + GFM: tables, task lists,
 * strikethrough); raw HTML in the input is shown as text, never passed through.
 *
 * Mentions. The service shows a mention of a member as
 * `<span data-type="mention" data-id="<member id>" data-label="<name>">@<name></span>`.
 * In markdown input a mention is written the way the bot writes a person: `@` followed by the
 * member's display name (`@Ada Lovelace`), the longest active member's name that matches; or
 * `<@member id>`. Anything else after `@` stays text.
 *
 * Derived title: when a post is written without a title, its title is the text of a leading
 * heading, or of a first paragraph that is only bold, else `""`; the content keeps it.
 *
 * A converter that is down stores the raw markdown wrapped in `<p>…</p>` (`convertContent`
 * with `down: true`), as the service does.
 */
import { Marked, type Token, type Tokens } from 'marked';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** A member a mention may name. */
export interface Mentionable {
  id: string;
  name: string;
}

export function mentionSpan(member: Mentionable): string {
  const label = escapeHtml(member.name);
  return `<span data-type="mention" data-id="${escapeHtml(member.id)}" data-label="${label}">@${label}</span>`;
}

interface MentionToken extends Tokens.Generic {
  type: 'mention';
  raw: string;
  member: Mentionable;
}

const NAME_END = /^[\p{L}\p{N}_]/u;

function mentionExtension(members: readonly Mentionable[]) {
  // Longest names first, so `@Ada Lovelace` wins over a member called `Ada`.
  const byName = [...members]
    .filter((m) => m.name.trim() !== '')
    .sort((a, b) => b.name.length - a.name.length);
  const byId = new Map(members.map((member) => [member.id, member]));
  return {
    name: 'mention',
    level: 'inline' as const,
    start(src: string): number | undefined {
      const match = /(?:^|[^\p{L}\p{N}_])[@<]/u.exec(src);
      if (!match) return undefined;
      return match.index + match[0].length - 1;
    },
    tokenizer(src: string): MentionToken | undefined {
      const byIdMatch = /^<@([0-9a-z]+)>/.exec(src);
      if (byIdMatch) {
        const member = byId.get(byIdMatch[1] ?? '');
        return member ? { type: 'mention', raw: byIdMatch[0], member } : undefined;
      }
      if (!src.startsWith('@')) return undefined;
      for (const member of byName) {
        const raw = `@${member.name}`;
        if (src.startsWith(raw) && !NAME_END.test(src.slice(raw.length))) {
          return { type: 'mention', raw, member };
        }
      }
      return undefined;
    },
    renderer(token: Tokens.Generic): string {
      return mentionSpan((token as MentionToken).member);
    },
  };
}

function converter(members: readonly Mentionable[]): Marked {
  return new Marked({
    gfm: true,
    breaks: false,
    async: false,
    extensions: [mentionExtension(members)],
    renderer: {
      // Raw HTML written in markdown is text, not markup.
      html: ({ text }) => escapeHtml(text),
    },
  });
}

export interface ConvertOptions {
  /** Active members, for mentions. */
  members?: readonly Mentionable[];
  /** The converter is down: the raw markdown wrapped in `<p>`. */
  down?: boolean;
}

/** Markdown → the HTML the service stores and answers; `""` for blank input. */
export function convertContent(markdown: string, options: ConvertOptions = {}): string {
  if (markdown.trim() === '') return '';
  if (options.down) return `<p>${markdown}</p>`;
  const html = converter(options.members ?? []).parse(markdown.replace(/\r\n?/g, '\n'), { async: false });
  return html.trim();
}

/** Plain text of inline tokens (marks dropped, mentions as `@Name`). */
function plainText(tokens: readonly Token[] | undefined): string {
  let out = '';
  for (const token of tokens ?? []) {
    if (token.type === 'mention') out += `@${(token as MentionToken).member.name}`;
    else if ('tokens' in token && Array.isArray(token.tokens) && token.tokens.length > 0) {
      out += plainText(token.tokens);
    } else if (token.type === 'br') out += ' ';
    else if ('text' in token && typeof token.text === 'string') out += token.text;
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** The title a post without one gets: a leading heading, or a first paragraph only bold; else `""`. */
export function deriveTitle(markdown: string, options: ConvertOptions = {}): string {
  if (options.down || markdown.trim() === '') return '';
  const tokens = converter(options.members ?? []).lexer(markdown.replace(/\r\n?/g, '\n'));
  const first = tokens.find((token) => token.type !== 'space');
  if (!first) return '';
  if (first.type === 'heading') return plainText(first.tokens);
  if (first.type === 'paragraph') {
    const inner = (first.tokens ?? []).filter((token) => !(token.type === 'text' && token.raw.trim() === ''));
    const only = inner[0];
    if (inner.length === 1 && only?.type === 'strong') return plainText(only.tokens);
  }
  return '';
}
