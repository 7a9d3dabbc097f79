/**
 * How resources are named in Slack: authors, channels, post titles, counts. Mrkdwn results are
 * escaped; `…Plain` results are plain text (for `plain_text` objects and fallbacks).
 */
import type { Author, Channel, Post } from '../collab/schemas.ts';
import { postContent } from './attribution.ts';
import { cutPlain } from './cut.ts';
import { escapeMrkdwn, mrkdwnToPlain, oneLine } from './text.ts';

/** Author types that say nothing a name does not: a person (`member`) or an integration (`app`). */
const PLAIN_TYPES = new Set(['app', 'member']);

/**
 * Author as plain text: the name; an unknown `type` ("not shown" in the spec) is shown as it is
 * ("Deploy bot (integration)"), the known ones are not.
 */
export function authorPlain(author: Author | null | undefined): string {
  if (!author) return 'someone';
  const name = oneLine(author.name ?? '') || author.id || 'someone';
  const type = typeof author.type === 'string' ? oneLine(author.type) : '';
  return type && !PLAIN_TYPES.has(type) ? `${name} (${type})` : name;
}

export function authorMrkdwn(author: Author | null | undefined): string {
  return escapeMrkdwn(authorPlain(author));
}

/** The post's author as mrkdwn: "Ada Lovelace via Slack" for a post made from Slack through the bot. */
export function postAuthorMrkdwn(post: Pick<Post, 'content' | 'author'>): string {
  const { person } = postContent(post);
  return person ? `${person} via Slack` : authorMrkdwn(post.author);
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

/** A post's title as plain text: its title, else the first words of its content, else its id. */
export function postTitlePlain(post: Post, max = 150): string {
  const title = oneLine(post.title ?? '');
  if (title) return cutPlain(title, max);
  // The bot's own attribution line is not part of what the post says.
  const words = oneLine(mrkdwnToPlain(postContent(post).text));
  if (words) return cutPlain(words, Math.min(max, 80));
  return cutPlain(`Post ${post.id}`, max);
}
