/**
 * Post cards in Slack: posting one where the person acted, and updating every card of a post in
 * place when the post changes (resolved, reopened, commented).
 */

import { isResolved, type Post } from '../collab/schemas.ts';
import type { Rider } from '../engine/index.ts';
import type { CardRef, Origin } from '../operations/schemas.ts';
import { postCard } from '../render/postCard.ts';
import { isGone, joinsFirst, slackErrorCode } from '../slackapi/errors.ts';
import type { PostShown, SlackMessageRef } from '../store/cards.ts';
import type { PostState } from '../store/feeds.ts';
import type { ProcessorContext } from './context.ts';
import { updateUnfurls } from './unfurls.ts';

/** Where a card went: a Slack message (updatable later), or only to the person (ephemeral). */
export type CardPlacement = { slackChannel: string; ts: string } | { ephemeral: true; error: string };

/**
 * Posts the card of `post` in `slackChannel` (in the thread `threadTs` when given) and
 * remembers it. `not_in_channel`: joins the channel and tries once more. Any other failure
 * (`channel_not_found`, a private channel, Slack unavailable): the card goes to the person
 * alone, with a hint to invite the bot.
 */
export async function postCardIn(
  ctx: ProcessorContext,
  origin: Origin,
  post: Post,
  where: { slackChannel: string; threadTs?: string | undefined },
): Promise<CardPlacement> {
  const placed = await postCardTo(ctx, post, where);
  if ('ts' in placed) return placed;
  const { error } = placed;
  ctx.logger.info({ err: error, slackChannel: where.slackChannel }, 'card not posted; telling the person');
  const fallback = postCard(post, { note: inviteHint(error) });
  await ctx.outcomes.deliver(origin, fallback, { replaceOriginal: false });
  return { ephemeral: true, error };
}

/**
 * Posts the card of `post` in `slackChannel` and remembers it, joining the channel once on
 * `not_in_channel`; answers the Slack error code when it could not (nobody is told: a feed has
 * no person to tell).
 */
export async function postCardTo(
  ctx: ProcessorContext,
  post: Post,
  where: { slackChannel: string; threadTs?: string | undefined },
): Promise<{ slackChannel: string; ts: string } | { error: string }> {
  const card = postCard(post);
  const send = async () => {
    const res = await ctx.slack.chat.postMessage({
      channel: where.slackChannel,
      text: card.text,
      blocks: card.blocks,
      unfurl_links: false,
      unfurl_media: false,
      ...(where.threadTs ? { thread_ts: where.threadTs } : {}),
    });
    return { slackChannel: res.channel ?? where.slackChannel, ts: res.ts ?? '' };
  };
  // Only Slack's refusals choose the fallback: once Slack has the card, a failure to remember it
  // (Redis away) is no reason to send the person a copy; it is retried, then fails the run.
  const first = await slackAnswer(send);
  if ('ts' in first) return rememberPosted(ctx, post, first);
  if (!joinsFirst(first.error)) return first;
  const second = await slackAnswer(async () => {
    await ctx.slack.conversations.join({ channel: where.slackChannel });
    return send();
  });
  return 'ts' in second ? rememberPosted(ctx, post, second) : second;
}

/** What Slack answered a call: its result, or its error code. */
async function slackAnswer<T>(call: () => Promise<T>): Promise<T | { error: string }> {
  try {
    return await call();
  } catch (error) {
    return { error: slackErrorCode(error) };
  }
}

/** How often, and how far apart, remembering a posted card is tried while Redis is away. */
const REMEMBER_TRIES = 10;
const REMEMBER_PAUSE_MS = 1000;

async function rememberPosted(
  ctx: ProcessorContext,
  post: Post,
  message: { slackChannel: string; ts: string },
): Promise<{ slackChannel: string; ts: string }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await remember(ctx, post, message);
    } catch (error) {
      if (attempt >= REMEMBER_TRIES) throw error;
      ctx.logger.info({ attempt }, 'card posted, not yet remembered; trying again');
      await new Promise((resolve) => setTimeout(resolve, REMEMBER_PAUSE_MS));
    }
  }
}

function inviteHint(error: string): string {
  return error === 'not_in_channel' || error === 'channel_not_found'
    ? 'I could not post this card in the channel: I am not in it. Invite me (`/invite @Collab`) to share cards here.'
    : `I could not post this card in the channel (\`${error}\`). If I am not in it, invite me (\`/invite @Collab\`).`;
}

async function remember(
  ctx: ProcessorContext,
  post: Post,
  message: { slackChannel: string; ts: string },
): Promise<{ slackChannel: string; ts: string }> {
  if (message.ts !== '') await ctx.store.cards.rememberCard(ctx.teamId, post.id, message);
  await ctx.store.urls.remember(ctx.teamId, post.url, post.id);
  await rememberShown(ctx, post);
  return message;
}

/**
 * Remembers what the post's cards show now, so a feed announces only changes made elsewhere
 * (a change the bot made from Slack has already updated its cards).
 */
export async function rememberShown(ctx: ProcessorContext, post: Post): Promise<void> {
  await ctx.store.feeds.setPostState(ctx.teamId, post.id, shownState(post));
}

export function shownState(post: Post): PostState {
  return {
    resolved: isResolved(post),
    resolvedAt: post.resolution?.resolved_at ?? null,
    comments: typeof post.comments_count === 'number' ? post.comments_count : null,
    lastActivityAt: post.last_activity_at ?? null,
  };
}

/**
 * Updates every remembered card of `post` in place (with `note` under it), and `extra` (the
 * card the person acted on) when it is not among them; then the unfurls of links to it
 * (unfurls.ts). Cards whose message is gone are forgotten; other Slack failures are logged: the
 * operation itself succeeded. Answers how many cards were updated.
 */
export async function updateCards(
  ctx: ProcessorContext,
  post: Post,
  note?: string,
  extra?: CardRef,
): Promise<number> {
  const shown = await lookUp(ctx, post, ctx.store.cards.showing(ctx.teamId, post.id, shownState(post)));
  return updateShown(ctx, post, shown, note, extra);
}

/**
 * One round trip: what the cards will show (the url, and the state a feed compares with —
 * written whatever Slack answers after), the cards and the unfurls to update, read by `shown`.
 */
async function lookUp<T>(ctx: ProcessorContext, post: Post, shown: Promise<T>): Promise<T> {
  const [found] = await Promise.all([shown, ctx.store.urls.remember(ctx.teamId, post.url, post.id)]);
  return found;
}

/**
 * updateCards's look-up as the rider of a step's started mark (engine Rider: the telling's, so that
 * the mark and the look-up cost one round trip); `shown()` answers it once the mark is written.
 */
export function cardsRider(ctx: ProcessorContext, post: Post): { rider: Rider; shown(): PostShown } {
  let shown: PostShown | undefined;
  const state = shownState(post);
  const rider: Rider = {
    async withMark(fence, on) {
      shown = await lookUp(ctx, post, ctx.store.cards.showingMarked(ctx.teamId, post.id, state, fence, on));
      return shown !== undefined;
    },
    async alone() {
      shown = await lookUp(ctx, post, ctx.store.cards.showing(ctx.teamId, post.id, state));
    },
  };
  return {
    rider,
    shown: () => {
      if (!shown) throw new Error('cardsRider: the mark it rides on was not written');
      return shown;
    },
  };
}

/** updateCards after its look-up: the card messages in Slack, then the unfurls. */
export async function updateShown(
  ctx: ProcessorContext,
  post: Post,
  shown: PostShown,
  note?: string,
  extra?: CardRef,
): Promise<number> {
  const updated = await updateCardMessages(ctx, post, shown.cards, note, extra);
  await updateUnfurls(ctx, post, shown.unfurls);
  return updated;
}

async function updateCardMessages(
  ctx: ProcessorContext,
  post: Post,
  cards: SlackMessageRef[],
  note: string | undefined,
  extra: CardRef | undefined,
): Promise<number> {
  const targets = [...cards];
  const isExtra =
    extra !== undefined && !cards.some((c) => c.slackChannel === extra.slackChannel && c.ts === extra.ts);
  if (extra && isExtra) targets.push(extra);
  let updated = 0;
  if (targets.length === 0) return updated;
  const card = postCard(post, note === undefined ? {} : { note });
  for (const target of targets) {
    try {
      await ctx.slack.chat.update({
        channel: target.slackChannel,
        ts: target.ts,
        text: card.text,
        blocks: card.blocks,
      });
      updated += 1;
      if (target === extra) await ctx.store.cards.rememberCard(ctx.teamId, post.id, target);
    } catch (error) {
      const code = slackErrorCode(error);
      ctx.logger.info({ err: code, slackChannel: target.slackChannel }, 'card not updated');
      if (isGone(code) && target !== extra) await ctx.store.cards.forgetCard(ctx.teamId, post.id, target);
    }
  }
  return updated;
}
