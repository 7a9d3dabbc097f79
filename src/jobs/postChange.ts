/** What resolvePost and unresolvePost share: naming the post, showing the change on its cards, telling. */
import { isResolved, type Post } from '../collab/schemas.ts';
import type { CardRef, Origin } from '../operations/schemas.ts';
import { type Outcome, success } from '../render/messages.ts';
import { escapeMrkdwn } from '../render/text.ts';
import { updateCards } from './cards.ts';
import type { ProcessorContext } from './context.ts';
import { tell } from './delivery.ts';

/**
 * Updates every card of the post with the note "`done` by *`by`* via Slack", and the card the
 * person acted on; then tells the person `done` — unless they pressed a card's button: the card
 * changing in place is the answer.
 */
export async function showPostChange(
  ctx: ProcessorContext,
  origin: Origin,
  post: Post,
  change: { done: string; by: string },
  card?: CardRef,
): Promise<void> {
  // A resolved card names the person in its resolution ("Resolved by Ada via Slack"): no note twice.
  const note = isResolved(post) ? undefined : `${change.done} by *${escapeMrkdwn(change.by)}* via Slack`;
  await updateCards(ctx, post, note, card);
  if (origin.source === 'button') return;
  await tell(ctx, origin, withPostLink(change.done, post));
}

/**
 * A success outcome `text` (plain words: render escapes them) followed by a link to the post,
 * labelled by its title (or its id); the label alone when the post has no usable url.
 */
export function withPostLink(text: string, post: Post): Outcome {
  const label = post.title?.replace(/\s+/g, ' ').trim() || `post ${post.id}`;
  return success(text, { link: { url: post.url ?? '', label } });
}
