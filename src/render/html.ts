/**
 * HTML → Slack mrkdwn.
 *
 * Parsing uses htmlparser2 (fb55; ~236M downloads a month, typed, ESM, no DOM needed): it is
 * forgiving (unclosed, misnested and custom tags such as `<mention>` or `<x-embed>` parse fine),
 * decodes every HTML entity, and leaves the rendering to us. Turndown and html-to-mrkdwn were
 * the alternatives: the first produces markdown we would have to convert again (with its own
 * backslash escapes), the second is little used. The walk below keeps the text of unknown tags,
 * drops scripts and styles, and escapes every piece of text for Slack.
 */
import { DomUtils, ElementType, parseDocument } from 'htmlparser2';
import {
  cleanInput,
  codeBlock,
  codeSpan,
  escapeMrkdwn,
  INDENT_MARK,
  mrkdwnLink,
  SENTINEL_CLOSE,
  SENTINEL_OPEN,
} from './text.ts';

type DomNode = ReturnType<typeof parseDocument>['children'][number];
type DomElement = Extract<DomNode, { attribs: Record<string, string> }>;

const isTag = (node: DomNode): node is DomElement => 'attribs' in node;

/** Elements whose content is never shown. */
const DROPPED = new Set([
  'script',
  'style',
  'template',
  'head',
  'title',
  'noscript',
  'iframe',
  'object',
  'svg',
  'math',
  'canvas',
]);
/** Elements that stand on their own lines. */
const BLOCKS = new Set([
  'div',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'aside',
  'nav',
  'figure',
  'figcaption',
  'details',
  'summary',
  'address',
  'dl',
  'dt',
  'dd',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'form',
  'fieldset',
  'center',
]);
const PARAGRAPHS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr']);
const KNOWN_TAGS =
  /<\/?(?:p|div|span|br|hr|b|strong|i|em|u|s|del|strike|a|ul|ol|li|h[1-6]|pre|code|blockquote|img|table|tr|td|th|section|article|mention|figure|input|link-unfurl|resource-mention|post-attachment|media-gallery)\b[^<>]*>/i;

/** True when the text carries HTML: a well-known tag, a closing tag or a comment. */
export function looksLikeHtml(text: string): boolean {
  return KNOWN_TAGS.test(text) || /<\/[a-zA-Z][\w:-]*\s*>/.test(text) || text.includes('<!--');
}

interface Context {
  bold: boolean;
  italic: boolean;
  strike: boolean;
  depth: number;
  /** Pieces protected from whitespace normalisation (code blocks), restored at the end. */
  kept: string[];
}

function textOf(nodes: DomNode[]): string {
  return DomUtils.textContent(nodes);
}

/** `marker` around the trimmed content, whitespace kept outside (Slack needs it tight). */
function wrap(marker: string, inner: string): string {
  const core = inner.trim();
  if (!core || core.includes('\n')) return inner;
  const lead = inner.slice(0, inner.length - inner.trimStart().length);
  const trail = inner.slice(inner.trimEnd().length);
  return `${lead}${marker}${core}${marker}${trail}`;
}

function keep(ctx: Context, text: string): string {
  ctx.kept.push(text);
  return `${SENTINEL_OPEN}${ctx.kept.length - 1}${SENTINEL_CLOSE}`;
}

function renderList(el: DomElement, ctx: Context, ordered: boolean): string {
  const startAttr = Number.parseInt(el.attribs.start ?? '1', 10);
  let n = Number.isFinite(startAttr) ? startAttr : 1;
  const indent = INDENT_MARK.repeat(Math.min(ctx.depth, 6));
  const inner: Context = { ...ctx, depth: ctx.depth + 1 };
  // A nested list follows its item's text line; a top-level list stands apart.
  let out = ctx.depth === 0 ? '\n' : '';
  for (const child of el.children) {
    if (isTag(child) && child.name === 'li') {
      const bullet = ordered ? `${n++}.` : ctx.depth === 0 ? '•' : '◦';
      // A task item (the service's `data-checked`, or a leading checkbox) shows its box instead.
      const checked = child.attribs['data-checked'];
      const box = checked === undefined ? '' : checked === 'true' ? '☑ ' : '☐ ';
      const text = render(child.children, inner).trim();
      const task = box !== '' || /^[☑☐] /.test(text);
      out += `\n${indent}${task ? '' : `${bullet} `}${box}${text}`;
    } else {
      const loose = render([child], inner).trim();
      if (loose) out += `\n${indent}${loose}`;
    }
  }
  return `${out}\n`;
}

function renderElement(el: DomNode, ctx: Context): string {
  if (!isTag(el)) return '';
  const name = el.name.toLowerCase();
  if (DROPPED.has(name)) return '';
  const inner = (next: Partial<Context> = {}) => render(el.children, { ...ctx, ...next });
  switch (name) {
    case 'br':
      return '\n';
    case 'hr':
      return '\n\n';
    case 'strong':
    case 'b':
      return ctx.bold ? inner() : wrap('*', inner({ bold: true }));
    case 'em':
    case 'i':
    case 'cite':
    case 'dfn':
      return ctx.italic ? inner() : wrap('_', inner({ italic: true }));
    case 's':
    case 'strike':
    case 'del':
      return ctx.strike ? inner() : wrap('~', inner({ strike: true }));
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      return `\n\n${ctx.bold ? inner() : wrap('*', inner({ bold: true }))}\n`;
    case 'code': {
      const code = textOf(el.children).replace(/\s+/g, ' ');
      return code.trim() ? codeSpan(code) : code;
    }
    case 'pre': {
      const block = codeBlock(textOf(el.children));
      return block ? `\n${keep(ctx, block)}\n` : '';
    }
    case 'a': {
      const label = textOf(el.children).replace(/\s+/g, ' ').trim();
      const href = el.attribs.href;
      if (!label) return href ? mrkdwnLink(href, '') : '';
      return mrkdwnLink(href, label);
    }
    case 'img': {
      const alt = (el.attribs.alt ?? el.attribs.title ?? '').replace(/\s+/g, ' ').trim();
      // The service's reactions are images of an emoji: their alt text is the emoji.
      if (el.attribs['data-type'] === 'reaction') return escapeMrkdwn(alt);
      return el.attribs.src ? mrkdwnLink(el.attribs.src, alt || 'image') : escapeMrkdwn(alt);
    }
    case 'input':
      if ((el.attribs.type ?? '').toLowerCase() !== 'checkbox') return '';
      return 'checked' in el.attribs ? '☑ ' : '☐ ';
    case 'link-unfurl':
    case 'resource-mention': {
      // The service's embeds of a link: the link itself.
      const href = el.attribs.href ?? el.attribs.url;
      const label = textOf(el.children).replace(/\s+/g, ' ').trim();
      return href ? mrkdwnLink(href, label) : escapeMrkdwn(label);
    }
    case 'post-attachment': {
      const name = (el.attribs.name ?? el.attribs.file_name ?? el.attribs['data-name'] ?? '').trim();
      return `\n:paperclip: ${escapeMrkdwn(name || 'attachment')}\n`;
    }
    case 'media-gallery':
      return '\n:frame_with_picture: media\n';
    case 'ul':
    case 'menu':
      return renderList(el, ctx, false);
    case 'ol':
      return renderList(el, ctx, true);
    case 'li':
      return `\n• ${inner().trim()}\n`;
    case 'blockquote': {
      const body = normalise(inner());
      if (!body) return '';
      const quoted = body
        .split('\n')
        .map((line) => (line ? `>${line}` : '>'))
        .join('\n');
      return `\n${keep(ctx, restore(quoted, ctx.kept))}\n`;
    }
    case 'td':
    case 'th':
      return ` ${inner()} `;
    default:
      break;
  }
  if (name === 'span' && el.attribs['data-type'] === 'mention') {
    // The service's mention of a member: the member's name.
    const label = (el.attribs['data-label'] ?? '').trim() || textOf(el.children).replace(/\s+/g, ' ').trim();
    if (!label) return '';
    return escapeMrkdwn(label.startsWith('@') ? label : `@${label}`);
  }
  if (name === 'li' && el.attribs['data-checked'] !== undefined) {
    return `${el.attribs['data-checked'] === 'true' ? '☑' : '☐'} ${inner()}`;
  }
  if (name.includes('mention')) {
    const who =
      textOf(el.children).replace(/\s+/g, ' ').trim() || el.attribs['data-name'] || el.attribs['data-label'];
    if (!who) return '';
    return escapeMrkdwn(who.startsWith('@') ? who : `@${who}`);
  }
  if (PARAGRAPHS.has(name)) return `\n\n${inner()}\n\n`;
  if (BLOCKS.has(name)) return `\n${inner()}\n`;
  return inner();
}

function render(nodes: DomNode[], ctx: Context): string {
  let out = '';
  for (const node of nodes) {
    if (node.type === ElementType.Text) {
      out += escapeMrkdwn(node.data.replace(/\s+/g, ' '));
    } else if (node.type === ElementType.CDATA) {
      out += render(node.children, ctx);
    } else if (isTag(node)) {
      out += renderElement(node, ctx);
    }
  }
  return out;
}

/** Line by line: single spaces, no spaces at ends, indentation marks to spaces, ≤ 1 blank line. */
function normalise(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]{2,}/g, ' ').trim())
    .join('\n')
    .replace(new RegExp(INDENT_MARK, 'g'), '    ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function restore(text: string, kept: string[]): string {
  const pattern = new RegExp(`${SENTINEL_OPEN}(\\d+)${SENTINEL_CLOSE}`, 'g');
  let out = text;
  // Kept pieces may hold other kept pieces (a code block in a quote): restore until none is left.
  for (let i = 0; i < 5 && pattern.test(out); i++) {
    out = out.replace(pattern, (_m, index: string) => kept[Number(index)] ?? '');
  }
  return out;
}

/** HTML (any, however broken) → mrkdwn. */
export function htmlToMrkdwn(html: string): string {
  const doc = parseDocument(cleanInput(html), { decodeEntities: true, lowerCaseTags: true });
  const ctx: Context = { bold: false, italic: false, strike: false, depth: 0, kept: [] };
  return restore(normalise(render(doc.children, ctx)), ctx.kept);
}

/** Decodes every HTML entity of a text that is not HTML (markdown or plain text). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return DomUtils.textContent(parseDocument(text.replace(/</g, '&lt;'), { decodeEntities: true }));
}
