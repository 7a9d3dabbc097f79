/**
 * How resources are named in Slack: authors, channels, post titles, counts. Mrkdwn results are
 * escaped; `…Plain` results are plain text (for `plain_text` objects and fallbacks).
 */
import type { Author, Channel, Post } from '../../collab/schemas.ts';
import { contentToMrkdwn } from './mrkdwn.ts';
import { cutPlain, escapeMrkdwn, mrkdwnToPlain, oneLine } from './text.ts';

/**
 * Author as plain text: the name, and its `type` as it is when one is given ("Deploy bot (app)").
 * Only `app` is a known type (spec §2.2); others are "not shown", so none is hidden.
 */
export function authorPlain(author: Author | null | undefined): string {
  if (!author) return 'someone';
  const name = oneLine(author.name ?? '') || author.id || 'someone';
  const type = typeof author.type === 'string' ? oneLine(author.type) : '';
  return type ? `${name} (${type})` : name;
}

export function authorMrkdwn(author: Author | null | undefined): string {
  return escapeMrkdwn(authorPlain(author));
}

export function channelPlain(channel: Channel | null | undefined): string | undefined {
  if (!channel) return undefined;
  const name = oneLine(channel.name ?? '') || channel.id;
  return name.startsWith('#') ? name : `#${name}`;
}

export function channelMrkdwn(channel: Channel | null | undefined): string | undefined {
  const name = channelPlain(channel);
  return name === undefined ? undefined : escapeMrkdwn(name);
}

/** "1 comment", "3 comments"; undefined when the count is unknown. */
export function countText(n: number | null | undefined, noun: string): string | undefined {
  if (typeof n !== 'number' || !Number.isFinite(n)) return undefined;
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Plain text of service content, on one line. */
export function contentPlain(content: string | null | undefined): string {
  return oneLine(mrkdwnToPlain(contentToMrkdwn(content)));
}

/** A post's title as plain text: its title, else the first words of its content, else its id. */
export function postTitlePlain(post: Post, max = 150): string {
  const title = oneLine(post.title ?? '');
  if (title) return cutPlain(title, max);
  const words = contentPlain(post.content);
  if (words) return cutPlain(words, Math.min(max, 80));
  return cutPlain(`Post ${post.id}`, max);
}
