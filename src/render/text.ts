/**
 * The atoms of mrkdwn every renderer builds with: Slack's escaping (the only `escapeMrkdwn`),
 * safe links, clean input, and mrkdwn back to plain text. Service content reaches mrkdwn through
 * content.ts; names and titles through these helpers (labels.ts); each piece of text from the
 * service is escaped once, where it enters mrkdwn. Cutting to limits is cut.ts. Pure, never throws.
 */

import { withoutControls } from '../operations/text.ts';

/** Private-use sentinels the converters use as placeholders; stripped from every input first. */
export const SENTINEL_OPEN = '\uE000';
export const SENTINEL_CLOSE = '\uE001';
export const INDENT_MARK = '\uE002';
const SENTINELS = /[\uE000-\uE002]/g;

/** Control and bidi-override characters never reach Slack (operations/text.ts says which). */
export { withoutControls };

/** Removes our sentinels, carriage returns and control characters (keeps `\n` and `\t`). */
export function cleanInput(text: string): string {
  return withoutControls(text.replace(/\r\n?/g, '\n').replace(SENTINELS, ''));
}

/**
 * Slack's three control characters, so service text can never ping, mention or link; control
 * characters go too (every piece of service text enters mrkdwn through here).
 */
export function escapeMrkdwn(text: string): string {
  return withoutControls(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Code as a `code span`; code holding a backtick cannot be one in Slack, so it stays escaped text. */
export function codeSpan(code: string): string {
  return code.includes('`') ? escapeMrkdwn(code) : `\`${escapeMrkdwn(code)}\``;
}

/**
 * Code as a fenced block (its own ``` written as ''', leading blank lines and trailing white
 * space dropped); empty when nothing is left.
 */
export function codeBlock(code: string): string {
  const body = code.replace(/```/g, "'''").replace(/^\n+|\s+$/g, '');
  return body ? `\`\`\`\n${escapeMrkdwn(body)}\n\`\`\`` : '';
}

/** The inverse of {@link escapeMrkdwn} (`&amp;` last, so `&amp;lt;` stays `&lt;`). */
export function unescapeMrkdwn(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
const WEB_SCHEMES = new Set(['http:', 'https:']);
/** Slack's limit on urls of buttons and links. */
const URL_MAX = 3000;

function validUrl(raw: string | null | undefined, schemes: Set<string>): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const trimmed = raw.trim();
  if (!trimmed || trimmed.length > URL_MAX || /[\p{Cc}]/u.test(trimmed)) return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return undefined;
  }
  if (!schemes.has(url.protocol.toLowerCase())) return undefined;
  // Keep the url as written when it is clean; otherwise take the percent-encoded form.
  const clean = /^[^\s<>"`|{}\\^]+$/.test(trimmed) ? trimmed : url.href;
  const result = clean.replace(/\|/g, '%7C');
  return result.length <= URL_MAX ? result : undefined;
}

/** An http(s) url fit for a button's `url` field (raw, not escaped), or undefined. */
export function webUrl(raw: string | null | undefined): string | undefined {
  return validUrl(raw, WEB_SCHEMES);
}

/** An http(s) or mailto url escaped for use inside `<url|label>`, or undefined. */
export function mrkdwnUrl(raw: string | null | undefined): string | undefined {
  const url = validUrl(raw, LINK_SCHEMES);
  return url === undefined ? undefined : escapeMrkdwn(url);
}

/**
 * A link label: one line, escaped. `|` would split the link, so it goes; `>` and `<` stay, as
 * `&gt;` and `&lt;` (escaped, neither ends the link).
 */
export function linkLabel(label: string): string {
  return escapeMrkdwn(label.replace(/\|/g, ' ').replace(/\s+/g, ' ').trim());
}

/**
 * `<url|label>` when the url is http(s) or mailto; otherwise the label as plain escaped text
 * (a `javascript:` link stays text).
 */
export function mrkdwnLink(url: string | null | undefined, label: string): string {
  const safe = mrkdwnUrl(url);
  if (safe === undefined) return escapeMrkdwn(label.replace(/\s+/g, ' ').trim());
  const text = linkLabel(label);
  return text && text !== safe ? `<${safe}|${text}>` : `<${safe}>`;
}

/** One line of plain text: whitespace runs become one space, control characters go. */
export function oneLine(text: string): string {
  return withoutControls(text.replace(/\s+/g, ' ')).trim();
}

/**
 * Plain text from mrkdwn, for `plain_text` objects and notification fallbacks: links become their
 * labels, formatting marks go, the three entities are decoded.
 */
export function mrkdwnToPlain(mrkdwn: string): string {
  const text = mrkdwn
    .replace(/<!date\^[^|>]*\|([^>]*)>/g, '$1')
    .replace(/<([^<>|]+)\|([^<>]*)>/g, '$2')
    .replace(/<([^<>]+)>/g, '$1')
    .replace(/```/g, '')
    .replace(/(^|[\s([{"'])[*_~`]+(?=\S)/gm, '$1')
    .replace(/(?<=\S)[*_~`]+(?=$|[\s.,:;!?)\]}"'])/gm, '')
    .replace(/^>\s?/gm, '');
  return unescapeMrkdwn(text);
}
