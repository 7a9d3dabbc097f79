/** What resolvePost and unresolvePost share: naming the post, showing the change on its cards, telling. */
import { isResolved, type Post } from '../collab/schemas.ts';
import { tell } from '../engine/index.ts';
import type { CardRef, Origin } from '../operations/schemas.ts';
import { postTitlePlain } from '../render/labels.ts';
import { type Outcome, success } from '../render/messages.ts';
import { escapeMrkdwn, webUrl } from '../render/text.ts';
import { cardsRider, updateCards, updateShown } from './cards.ts';
import type { ProcessorContext } from './context.ts';
import { orNotFound } from './resolveRefs.ts';

/**
 * Updates every card of the post with the note "`done` by *`by`* via Slack" (no note without
 * `by`: nothing changed), and the card the person acted on; then tells the person `done` —
 * unless they pressed a card's button: the card changing in place is the answer.
 */
export async function showPostChange(
  ctx: ProcessorContext,
  origin: Origin,
  post: Post,
  change: { done: string; by?: string },
  card?: CardRef,
): Promise<void> {
  aboutPost(ctx, post);
  // A resolved card names the person in its resolution ("Resolved by Ada via Slack"): no note twice.
  const note =
    change.by === undefined || isResolved(post)
      ? undefined
      : `${change.done} by *${escapeMrkdwn(change.by)}* via Slack`;
  if (origin.source === 'button') {
    await updateCards(ctx, post, note, card);
    return;
  }
  // The cards' look-up rides on the telling's started mark (one round trip); the cards change
  // before the person is told. A run that stops in between tells the same outcome (engine/tell.ts).
  const look = cardsRider(ctx, post);
  await tell(ctx, origin, withPostLink(change.done, post), {
    rider: look.rider,
    first: async () => {
      await updateShown(ctx, post, look.shown(), note, card);
    },
  });
}

/**
 * The post as it is now, when it already shows the change asked for (`resolved`: resolved or
 * open) — the service changes a post to the state it is in without a word. Then nothing is to be
 * sent: its cards show it as it is, with no note, and the person is told `already` (a button's
 * card answers alone). Answers whether that was so; a 404 is `notFound`'s words.
 */
export async function showIfAlready(
  ctx: ProcessorContext,
  origin: Origin,
  postId: string,
  want: { resolved: boolean; already: string; notFound: () => string },
  card?: CardRef,
): Promise<boolean> {
  const now = await orNotFound(() => ctx.collab.getPost(postId), want.notFound);
  if (isResolved(now) !== want.resolved) return false;
  await showPostChange(ctx, origin, now, { done: want.already }, card);
  return true;
}

/**
 * A success outcome `text` (plain words: render escapes them) followed by a link to the post,
 * labelled by its title (or its id); the label alone when the post has no usable url.
 */
export function withPostLink(text: string, post: Post): Outcome {
  const label = post.title?.replace(/\s+/g, ' ').trim() || `post ${post.id}`;
  return success(text, { link: { url: post.url ?? '', label } });
}

/** Names the post as what the operation acted on, for the person's recent operations (App Home). */
export function aboutPost(ctx: Pick<ProcessorContext, 'about'>, post: Post): void {
  const url = webUrl(post.url);
  ctx.about({ title: postTitlePlain(post), ...(url ? { url } : {}) });
}
