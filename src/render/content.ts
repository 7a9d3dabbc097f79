/**
 * The one pipeline from service content to safe Slack mrkdwn: every builder that shows a post's,
 * comment's, resolution's or message's content takes it from here.
 *
 * Content format in responses is "not shown" (DESIGN.md): it may be HTML (with custom tags),
 * markdown or plain text. HTML goes through htmlparser2 (see html.ts for why that library),
 * anything else through a small markdown converter (markdown.ts). Escaping happens once, there:
 * each converter escapes `&`, `<`, `>` in every piece of text as it emits it, so nothing from the
 * service can ping `@channel`, mention or link by itself, and nothing downstream escapes the
 * result again. A builder cuts the result to its limit last (cut.ts's `truncate`, on the escaped
 * text: never inside an entity or a link). Nothing here throws: garbage in, readable text out.
 *
 * A card asks for a post's content several times (excerpt, author, title, fallback): the last
 * few conversions are remembered by their input, so one render converts each content once.
 */
import { decodeEntities, htmlToMrkdwn, looksLikeHtml } from './html.ts';
import { markdownToMrkdwn } from './markdown.ts';
import { cleanInput, escapeMrkdwn, mrkdwnToPlain, oneLine } from './text.ts';

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

function convert(content: string): string {
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

/** Conversions remembered, by input: enough for every content of one card, list or digest page. */
const RECENT_MAX = 16;
const recent = new Map<string, string>();

function convertOnce(content: string): string {
  const known = recent.get(content);
  if (known !== undefined) return known;
  const mrkdwn = convert(content);
  recent.set(content, mrkdwn);
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value as string);
  return mrkdwn;
}

/** Service content (HTML, markdown or plain text) → escaped Slack mrkdwn. */
export function contentToMrkdwn(content: string | null | undefined): string {
  if (typeof content !== 'string' || content.trim() === '') return '';
  return convertOnce(content);
}

/** Plain text of service content, on one line. */
export function contentPlain(content: string | null | undefined): string {
  return oneLine(mrkdwnToPlain(contentToMrkdwn(content)));
}
