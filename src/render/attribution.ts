/**
 * Who did it. Everything the bot writes goes out under the organisation's one key, so the service
 * shows the app as author and resolver; the person behind a write is known only from the line the
 * bot adds to the text ("Posted from Slack by Ada Lovelace", "Resolved from Slack by Ada
 * Lovelace"). Cards show that person once ("Ada Lovelace via Slack") and leave the line out of the
 * excerpt. Works on converted mrkdwn (contentToMrkdwn), so it reads HTML and markdown alike. Pure.
 */
import type { Post } from '../collab/schemas.ts';
import { contentToMrkdwn } from './content.ts';
import { unescapeMrkdwn } from './text.ts';

const POSTED = /^_?Posted from Slack by (.+?)(?: \((?:<[^<>|]*\|message>|message)\))?_?$/;
const RESOLVED = /^_?Resolved from Slack by (.+?)_?$/;

export interface Attributed {
  /** The mrkdwn without the bot's attribution line. */
  text: string;
  /** The person named by the attribution line, as escaped mrkdwn; undefined without one. */
  person?: string;
}

function split(mrkdwn: string, pattern: RegExp): Attributed {
  const lines = mrkdwn.split('\n');
  let last = lines.length - 1;
  while (last >= 0 && (lines[last] ?? '').trim() === '') last -= 1;
  const match = pattern.exec((lines[last] ?? '').trim());
  const person = match?.[1]?.trim();
  if (!person) return { text: mrkdwn };
  return { text: lines.slice(0, last).join('\n').trim(), person };
}

const byApp = (author: { type?: string | null | undefined } | null | undefined) => author?.type === 'app';

/** A post's content as mrkdwn, and the Slack person who posted it through the bot (if so). */
export function postContent(post: Pick<Post, 'content' | 'author'>): Attributed {
  const mrkdwn = contentToMrkdwn(post.content);
  return byApp(post.author) ? split(mrkdwn, POSTED) : { text: mrkdwn };
}

/** A resolution's message as mrkdwn, and the Slack person who resolved it through the bot (if so). */
export function resolutionContent(post: Pick<Post, 'resolution'>): Attributed {
  const resolution = post.resolution;
  const mrkdwn =
    contentToMrkdwn(resolution?.resolved_html) || contentToMrkdwn(resolution?.resolved_comment?.content);
  return byApp(resolution?.resolved_by) ? split(mrkdwn, RESOLVED) : { text: mrkdwn };
}

/** Who resolved the post, as plain text: the Slack person behind the app, else the resolver's name. */
export function resolverPlain(post: Pick<Post, 'resolution'>): string | undefined {
  const { person } = resolutionContent(post);
  if (person) return unescapeMrkdwn(person);
  const name = post.resolution?.resolved_by?.name?.replace(/\s+/g, ' ').trim();
  return name || undefined;
}
