/**
 * Markdown (or plain text) → Slack mrkdwn: `**bold**` → `*bold*`, `*it*` → `_it_`,
 * `~~s~~` → `~s~`, `[label](url)` → `<url|label>` (http, https and mailto only), headings → bold
 * lines, list items → `•` bullets, code spans and fences kept. Everything else is text, escaped.
 * Line based and forgiving: whatever does not parse stays as readable text.
 */
import { codeBlock, codeSpan, escapeMrkdwn, INDENT_MARK, mrkdwnLink } from './text.ts';

interface Rule {
  pattern: RegExp;
  render(match: RegExpExecArray): string;
}

const RULES: Rule[] = [
  // backslash escape: the character as text
  { pattern: /\\([\\`*_{}[\]()#+\-.!~|<>&])/y, render: (m) => escapeMrkdwn(m[1] ?? '') },
  // code span
  {
    pattern: /(`+)([^`]|[^`][\s\S]{0,2000}?[^`])\1(?!`)/y,
    render: (m) => codeSpan((m[2] ?? '').trim()),
  },
  // image: its alt text as a link
  {
    pattern:
      /!\[([^\]]{0,500})\]\(\s*<?((?:[^\s()<>]|\([^\s()<>]{0,200}\)){0,2000})>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/y,
    render: (m) => mrkdwnLink(m[2], plainInline(m[1] ?? '') || 'image'),
  },
  // link
  {
    pattern:
      /\[((?:[^[\]]|\[[^\]]{0,200}\]){0,500})\]\(\s*<?((?:[^\s()<>]|\([^\s()<>]{0,200}\)){0,2000})>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/y,
    render: (m) => mrkdwnLink(m[2], plainInline(m[1] ?? '') || (m[2] ?? '')),
  },
  // autolink
  {
    pattern: /<((?:https?|mailto):[^\s<>]{1,3000})>/iy,
    render: (m) => mrkdwnLink(m[1], '') || escapeMrkdwn(m[1] ?? ''),
  },
  // bold
  { pattern: /\*\*(?=\S)(.{1,1000}?)(?<=\S)\*\*(?!\*)/y, render: (m) => `*${inline(m[1] ?? '', 'bold')}*` },
  {
    pattern: /(?<![\p{L}\p{N}_])__(?=\S)(.{1,1000}?)(?<=\S)__(?![\p{L}\p{N}_])/uy,
    render: (m) => `*${inline(m[1] ?? '', 'bold')}*`,
  },
  // strike
  { pattern: /~~(?=\S)(.{1,1000}?)(?<=\S)~~/y, render: (m) => `~${inline(m[1] ?? '')}~` },
  // italic with asterisks (underscores already mean italic in mrkdwn)
  { pattern: /\*(?=[^\s*])([^*]{1,1000}?)(?<=\S)\*(?!\*)/y, render: (m) => `_${inline(m[1] ?? '')}_` },
];

const SPECIAL = /[\\`![<*_~]/;

/** Inline markdown of one line → mrkdwn. */
function inline(text: string, within?: 'bold'): string {
  let out = '';
  let plain = '';
  let i = 0;
  while (i < text.length) {
    const ch = text.charAt(i);
    let matched = false;
    if (SPECIAL.test(ch)) {
      for (const rule of RULES) {
        rule.pattern.lastIndex = i;
        const m = rule.pattern.exec(text);
        if (m) {
          let rendered = rule.render(m);
          // Slack has one weight of bold: nested bold marks would print as stars.
          if (
            within === 'bold' &&
            rendered.length > 2 &&
            rendered.startsWith('*') &&
            rendered.endsWith('*')
          ) {
            rendered = rendered.slice(1, -1);
          }
          out += escapeMrkdwn(plain) + rendered;
          plain = '';
          i += m[0].length;
          matched = true;
          break;
        }
      }
    }
    if (!matched) {
      plain += ch;
      i++;
    }
  }
  return out + escapeMrkdwn(plain);
}

/** A link label: inline markdown reduced to its text. */
function plainInline(text: string): string {
  return text
    .replace(/\\([\\`*_{}[\]()#+\-.!~|<>&])/g, '$1')
    .replace(/(\*\*|__|~~|`)/g, '')
    .trim();
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;
const RULE = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;
const BULLET = /^(\s*)[-*+]\s+(.*)$/;
const ORDERED = /^(\s*)(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const TASK = /^\[([ xX])\]\s+(.*)$/;

function indentOf(spaces: string): string {
  const width = spaces.replace(/\t/g, '    ').length;
  return INDENT_MARK.repeat(Math.min(6, Math.floor(width / 2)));
}

function listItem(rest: string): string {
  const task = TASK.exec(rest);
  if (!task) return inline(rest);
  return `${task[1] === ' ' ? '☐' : '☑'} ${inline(task[2] ?? '')}`;
}

/** Markdown text (entities already decoded) → mrkdwn. */
export function markdownToMrkdwn(markdown: string): string {
  const out: string[] = [];
  let fence: { marker: string; lines: string[] } | undefined;
  const flush = () => {
    if (!fence) return;
    const block = codeBlock(fence.lines.join('\n'));
    if (block) out.push(block);
    fence = undefined;
  };
  for (const line of markdown.split('\n')) {
    const fenceMatch = FENCE.exec(line);
    if (fence) {
      if (fenceMatch?.[1]?.startsWith(fence.marker)) flush();
      else fence.lines.push(line);
      continue;
    }
    if (fenceMatch) {
      fence = { marker: fenceMatch[1] ?? '```', lines: [] };
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const title = inline(heading[1] ?? '', 'bold');
      out.push(title ? `*${title}*` : '');
      continue;
    }
    if (RULE.test(line)) {
      out.push('');
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      const indent = indentOf(bullet[1] ?? '');
      out.push(`${indent}${indent ? '◦' : '•'} ${listItem(bullet[2] ?? '')}`);
      continue;
    }
    const ordered = ORDERED.exec(line);
    if (ordered) {
      out.push(`${indentOf(ordered[1] ?? '')}${ordered[2]}. ${listItem(ordered[3] ?? '')}`);
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      out.push(`>${inline(quote[1] ?? '')}`);
      continue;
    }
    out.push(inline(line.replace(/\s+$/, '').replace(/\\$/, '')));
  }
  flush();
  return out
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(new RegExp(INDENT_MARK, 'g'), '    ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
