/**
 * The post card: how a post looks in Slack, with its Resolve/Reopen, Comment and Open buttons.
 */
import { createHash } from 'node:crypto';
import type { Button, KnownBlock } from '@slack/types';
import { isResolved, type Post } from '../collab/schemas.ts';
import { postContent, resolutionContent } from './attribution.ts';
import { truncate } from './cut.ts';
import { ACTIONS } from './ids.ts';
import {
  authorMrkdwn,
  authorPlain,
  channelMrkdwn,
  channelPlain,
  countText,
  postAuthorMrkdwn,
  postTitlePlain,
} from './labels.ts';
import { LIMITS, md, plain } from './limits.ts';
import { escapeMrkdwn, mrkdwnLink, mrkdwnToPlain, oneLine, webUrl } from './text.ts';
import { slackTime } from './time.ts';

/** Characters of content shown on a card before "Read more". */
export const CARD_EXCERPT_MAX = 600;
/** Characters of a resolution message shown on a card. */
export const CARD_RESOLUTION_MAX = 300;

export interface PostCardOptions {
  /** A mrkdwn line shown in a context block, e.g. "Resolved by *Ada* via Slack". Not escaped here: the caller escapes. */
  note?: string;
}

/**
 * A short hash of what the card shows that can change: resolution state, last activity and the
 * comments count. Listeners compare it to ignore a second click on the same card state.
 */
export function cardVersion(post: Post): string {
  const resolution = post.resolution;
  const state = [
    isResolved(post) ? 'resolved' : 'open',
    resolution?.resolved_at ?? '',
    resolution?.resolved_by?.id ?? '',
    resolution?.resolved_comment?.id ?? '',
    post.last_activity_at ?? '',
    post.comments_count ?? '',
  ].join('\u241f');
  return createHash('sha256').update(state).digest('hex').slice(0, 8);
}

/** The `value` of the card's buttons: `{"p": post id, "v": card version}`. */
export function cardActionValue(post: Post): string {
  return JSON.stringify({ p: post.id, v: cardVersion(post) });
}

export function parseCardActionValue(value: string): { postId: string; version: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { p, v } = parsed as { p?: unknown; v?: unknown };
  if (typeof p !== 'string' || p === '' || typeof v !== 'string') return undefined;
  return { postId: p, version: v };
}

/** `*<url|title>*`, or `*title*` when the post has no usable url. */
export function postTitleMrkdwn(post: Post): string {
  const title = postTitlePlain(post);
  return `*${mrkdwnLink(webUrl(post.url), title)}*`;
}

function resolutionBlock(post: Post): KnownBlock {
  const resolution = post.resolution;
  // Resolved from Slack: the app resolved it, the person is named once, from the bot's own line.
  const { text: message, person } = resolutionContent(post);
  const by = person
    ? ` by *${person}* via Slack`
    : resolution?.resolved_by
      ? ` by *${authorMrkdwn(resolution.resolved_by)}*`
      : '';
  const when = slackTime(resolution?.resolved_at);
  const head = `:white_check_mark: *Resolved*${by}${when ? ` ${when}` : ''}`;
  if (!message) return { type: 'section', text: md(head) };
  const excerpt = truncate(message, CARD_RESOLUTION_MAX, { url: post.url });
  const quoted = excerpt
    .split('\n')
    .map((line) => `>${line}`)
    .join('\n');
  return { type: 'section', text: md(`${head}\n${quoted}`) };
}

function buttons(post: Post): Button[] {
  const value = cardActionValue(post);
  const out: Button[] = [];
  if (value.length <= LIMITS.buttonValue) {
    out.push(
      isResolved(post)
        ? { type: 'button', action_id: ACTIONS.reopen, text: plain('Reopen', LIMITS.buttonText), value }
        : {
            type: 'button',
            action_id: ACTIONS.resolve,
            text: plain('Resolve', LIMITS.buttonText),
            style: 'primary',
            value,
          },
      { type: 'button', action_id: ACTIONS.comment, text: plain('Comment', LIMITS.buttonText), value },
    );
  }
  const url = webUrl(post.url);
  if (url) {
    out.push({ type: 'button', action_id: ACTIONS.openPost, text: plain('Open', LIMITS.buttonText), url });
  }
  return out;
}

/** One plain line for notifications and screen readers. */
function fallbackText(post: Post): string {
  const { person } = postContent(post);
  const author = person ? `${mrkdwnToPlain(person)} via Slack` : authorPlain(post.author);
  const where = [channelPlain(post.channel), `by ${author}`].filter(Boolean).join(', ');
  const state = isResolved(post) ? 'Resolved' : 'Open';
  return escapeMrkdwn(oneLine(`${state} post: ${postTitlePlain(post, 200)} (${where})`));
}

export function postCard(post: Post, options: PostCardOptions = {}): { text: string; blocks: KnownBlock[] } {
  const resolved = isResolved(post);
  const blocks: KnownBlock[] = [{ type: 'section', text: md(postTitleMrkdwn(post)) }];

  const facts = [
    resolved ? ':white_check_mark: Resolved' : ':large_blue_circle: Open',
    channelMrkdwn(post.channel),
    postAuthorMrkdwn(post),
    slackTime(post.created_at),
    countText(post.comments_count, 'comment'),
  ].filter((fact): fact is string => Boolean(fact));
  blocks.push({ type: 'context', elements: [md(facts.join('  ·  '), LIMITS.contextText)] });

  const content = postContent(post).text;
  const titleFromContent = !oneLine(post.title ?? '');
  if (content && !(titleFromContent && content.length <= 80)) {
    blocks.push({ type: 'section', text: md(truncate(content, CARD_EXCERPT_MAX, { url: post.url })) });
  }
  if (resolved) blocks.push(resolutionBlock(post));
  if (options.note?.trim()) {
    blocks.push({ type: 'context', elements: [md(options.note, LIMITS.contextText)] });
  }
  const actions = buttons(post);
  if (actions.length > 0) blocks.push({ type: 'actions', elements: actions });

  return { text: truncate(fallbackText(post), 300), blocks };
}
