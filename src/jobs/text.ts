/**
 * Comparing what we sent (markdown) with what the service answers (`content` whose format is
 * "not shown": HTML, markdown or plain text). Used by the recover steps of creates, to decide
 * whether an ambiguous create landed. Both sides are reduced to a key: tags dropped, entities
 * decoded, markdown links reduced to their label, markdown punctuation and all whitespace removed.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import { CLOCK_MARGIN_MS } from '../engine/index.ts';

/** The text of HTML, markdown or plain text: tags dropped, entities decoded. */
export function textOf(content: string): string {
  return DomUtils.textContent(parseDocument(content, { decodeEntities: true }));
}

/** A comparison key that survives the service's rendering of markdown into HTML. */
export function contentKey(content: string): string {
  const withoutLinks = content.replace(/\[([^\]]*)\]\([^)\s]*\)/g, '$1');
  return textOf(withoutLinks)
    .replace(/[\s*_~`#>\\]+/g, '')
    .normalize('NFC');
}

/** True when `content` (from the service) holds `text` (what we sent). */
export function contentContains(content: string | null | undefined, text: string): boolean {
  if (content === null || content === undefined) return false;
  const needle = contentKey(text);
  return needle === '' ? true : contentKey(content).includes(needle);
}

/** True when `content` (from the service) is `text` (what we sent). */
export function contentEquals(content: string | null | undefined, text: string): boolean {
  if (content === null || content === undefined) return false;
  return contentKey(content) === contentKey(text);
}

/** Markdown text the person wrote or is named in, with markdown's emphasis marks escaped. */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_~[\]])/g, '\\$1');
}

/**
 * Whether a record the service made at `createdAt` could be ours, made no earlier than
 * `since` (our clock). The clocks differ, so a margin is allowed; an unreadable timestamp
 * (formats are "not shown") never excludes a record.
 */
export function createdSince(createdAt: string | null | undefined, since: number): boolean {
  if (!createdAt) return true;
  const at = Date.parse(createdAt);
  return Number.isNaN(at) || at >= since - CLOCK_MARGIN_MS;
}
