/**
 * Slack mrkdwn → markdown, for "Create post from message": mentions become names, links become
 * markdown links, `*bold*` becomes `**bold**`, entities are decoded. Code is kept as it is.
 */
import { cleanInput, SENTINEL_CLOSE, SENTINEL_OPEN, unescapeMrkdwn } from './text.ts';

export interface SlackNames {
  user(id: string): string | undefined;
  channel?(id: string): string | undefined;
}

function markdownUrl(url: string): string {
  return url.replace(/\s/g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29');
}

function markdownLabel(label: string): string {
  return label.replace(/([[\]])/g, '\\$1');
}

/** One `<…>` token of Slack's text (inside the brackets, still escaped). */
function token(inner: string, names: SlackNames): string {
  const bar = inner.indexOf('|');
  const target = bar >= 0 ? inner.slice(0, bar) : inner;
  const label = bar >= 0 ? unescapeMrkdwn(inner.slice(bar + 1)) : undefined;
  if (target.startsWith('@')) {
    const id = target.slice(1);
    const name = names.user(id) ?? label?.replace(/^@/, '') ?? id;
    return `@${name}`;
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    const name = names.channel?.(id) ?? label?.replace(/^#/, '') ?? id;
    return `#${name}`;
  }
  if (target.startsWith('!')) {
    const special = target.slice(1);
    if (special === 'here' || special === 'channel' || special === 'everyone') return `@${special}`;
    if (special.startsWith('subteam^')) return label ?? `@${special.slice('subteam^'.length)}`;
    return label ?? special.split('^')[0] ?? '';
  }
  const url = unescapeMrkdwn(target);
  if (label === undefined || label === '' || label === url) return url;
  return `[${markdownLabel(label)}](${markdownUrl(url)})`;
}

/**
 * Slack text → markdown. `names.user` (and `names.channel`) give display names for ids; a
 * permalink, when given, is appended as `[View in Slack](permalink)`.
 */
export function slackToMarkdown(text: string, names: SlackNames, permalink?: string): string {
  const kept: string[] = [];
  const keep = (piece: string) => {
    kept.push(piece);
    return `${SENTINEL_OPEN}${kept.length - 1}${SENTINEL_CLOSE}`;
  };
  let out = cleanInput(typeof text === 'string' ? text : '');
  // Code first: nothing inside it is formatting.
  out = out.replace(/```[\s\S]*?```/g, (code) => keep(unescapeMrkdwn(code)));
  out = out.replace(/`[^`\n]+`/g, (code) => keep(unescapeMrkdwn(code)));
  out = out.replace(/<([^<>\n]+)>/g, (_m, inner: string) => keep(token(inner, names)));
  out = out.replace(/(^|[^\p{L}\p{N}*\\])\*(?=\S)([^*\n]{1,1000}?)(?<=\S)\*(?![\p{L}\p{N}*])/gu, '$1**$2**');
  out = out.replace(/(^|[^\p{L}\p{N}~\\])~(?=\S)([^~\n]{1,1000}?)(?<=\S)~(?![\p{L}\p{N}~])/gu, '$1~~$2~~');
  out = unescapeMrkdwn(out);
  out = out.replace(
    new RegExp(`${SENTINEL_OPEN}(\\d+)${SENTINEL_CLOSE}`, 'g'),
    (_m, i: string) => kept[Number(i)] ?? '',
  );
  if (permalink) out = `${out}\n\n[View in Slack](${markdownUrl(permalink)})`;
  return out;
}
