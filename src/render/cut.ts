/**
 * Cutting text to Slack's limits: plain text at a word boundary, mrkdwn without ever splitting an
 * escape, an entity, a `<…>` link or a code fence. The cut comes after escaping (the limits count
 * the characters Slack receives), so nothing is escaped again here. Pure, never throws.
 */
import { mrkdwnLink, mrkdwnUrl } from './text.ts';

/** Drops a lone high surrogate at the end of a cut string. */
function dropBrokenSurrogate(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}

/**
 * The first `budget` characters of `text`, moved back to the last word boundary when it is close
 * (within 20% or 40 characters). Trailing whitespace is removed.
 */
export function cutAtWord(text: string, budget: number): string {
  if (budget <= 0) return '';
  if (text.length <= budget) return text;
  let cut = dropBrokenSurrogate(text.slice(0, budget));
  const next = text.charAt(budget);
  if (next && !/\s/.test(next)) {
    const space = Math.max(cut.lastIndexOf(' '), cut.lastIndexOf('\n'), cut.lastIndexOf('\t'));
    if (space > 0 && budget - space <= Math.min(40, Math.ceil(budget * 0.2))) cut = cut.slice(0, space);
  }
  return cut.trimEnd();
}

/** Plain text cut to `max` characters with `…` when it had to be cut. */
export function cutPlain(text: string, max: number): string {
  const limit = Number.isFinite(max) ? Math.max(0, Math.floor(max)) : 0;
  if (text.length <= limit) return text;
  if (limit === 0) return '';
  return `${cutAtWord(text, limit - 1)}…`;
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
