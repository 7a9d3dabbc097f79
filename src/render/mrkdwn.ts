/**
 * Text from the service → Slack mrkdwn, and back.
 *
 * Content format in responses is "not shown" (DESIGN.md): it may be HTML (with custom tags),
 * markdown or plain text. HTML goes through htmlparser2 (see html.ts for why that library),
 * anything else through a small markdown converter (markdown.ts); both escape `&`, `<`, `>` in
 * every piece of text, so nothing from the service can ping `@channel`, mention or link by
 * itself. Nothing here throws: garbage in, readable text out.
 */
import { decodeEntities, htmlToMrkdwn, looksLikeHtml } from './html.ts';
import { markdownToMrkdwn } from './markdown.ts';
import { cleanInput, cutAtWord, escapeMrkdwn, mrkdwnLink, mrkdwnUrl } from './text.ts';

export { slackToMarkdown } from './slackMarkdown.ts';
export { escapeMrkdwn };

/** Content longer than this is cut before conversion: more than any Slack surface shows. */
const INPUT_MAX = 60_000;

/**
 * The service's converter, when down, stores the raw markdown wrapped in one `<p>…</p>`: HTML on
 * the outside, markdown inside. Answers that markdown (entities still encoded), else undefined.
 */
function markdownInParagraph(text: string): string | undefined {
  const match = /^\s*<p>([\s\S]*)<\/p>\s*$/i.exec(text);
  const inner = match?.[1];
  if (inner === undefined || /<\/?p\b/i.test(inner) || looksLikeHtml(inner)) return undefined;
  return inner;
}

/** Service content (HTML, markdown or plain text) → escaped Slack mrkdwn. */
export function contentToMrkdwn(content: string | null | undefined): string {
  if (typeof content !== 'string' || content.trim() === '') return '';
  const text = cleanInput(content.length > INPUT_MAX ? content.slice(0, INPUT_MAX) : content);
  try {
    const wrapped = markdownInParagraph(text);
    if (wrapped !== undefined) return markdownToMrkdwn(decodeEntities(wrapped));
    return looksLikeHtml(text) ? htmlToMrkdwn(text) : markdownToMrkdwn(decodeEntities(text));
  } catch {
    // Too deep or a converter bug: the user still gets the words, tags removed, escaped.
    return escapeMrkdwn(text.replace(/<[^<>]*>/g, ' ').replace(/[ \t]+/g, ' ')).trim();
  }
}

/** A cut that does not end inside `<…>` or an entity. */
function cutSafe(text: string, budget: number): string {
  let cut = cutAtWord(text, budget);
  const open = cut.lastIndexOf('<');
  if (open > cut.lastIndexOf('>')) cut = cut.slice(0, open).trimEnd();
  return cut.replace(/&[#a-zA-Z0-9]{0,8}$/, '').trimEnd();
}

const oddFences = (text: string) => (text.split('```').length - 1) % 2 === 1;

/** {@link cutSafe}, closing a code block the cut left open. */
function cutMrkdwn(text: string, budget: number): string {
  const cut = cutSafe(text, budget);
  if (!oddFences(cut)) return cut;
  const shorter = cutSafe(text, budget - 4);
  if (!oddFences(shorter)) return shorter;
  return budget >= 8 ? `${shorter}\n\`\`\`` : shorter.slice(0, shorter.lastIndexOf('```')).trimEnd();
}

/**
 * Cuts mrkdwn to at most `max` characters: at a word boundary when one is close, never inside a
 * link or an entity, then `…` and, with a url, ` <url|Read more>`. The result is never longer
 * than `max`; the link is dropped (never cut) when it does not fit.
 */
export function truncate(text: string, max: number, more?: { url?: string | null; label?: string }): string {
  const limit = Number.isFinite(max) ? Math.max(0, Math.floor(max)) : 0;
  if (text.length <= limit) return text;
  if (limit === 0) return '';
  const link = more?.url && mrkdwnUrl(more.url) ? mrkdwnLink(more.url, more.label ?? 'Read more') : '';
  let suffix = link ? `… ${link}` : '…';
  if (suffix.length > limit) suffix = '…';
  return cutMrkdwn(text, limit - suffix.length) + suffix;
}
