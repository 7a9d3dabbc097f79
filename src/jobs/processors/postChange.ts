/** What resolvePost and unresolvePost share: naming the post, showing the change on its cards, telling. */
import type { Post } from '../../collab/schemas.ts';
import { type Outcome, success } from '../../slack/render/messages.ts';
import type { ProcessorContext } from '../context.ts';
import type { CardRef, Origin } from '../schemas.ts';
import { updateCards } from './cards.ts';
import { tell } from './tell.ts';

/**
 * Updates every card of the post with `note`, and the card the person acted on; then tells the
 * person `done` — unless they pressed a card's button: the card changing in place is the answer.
 */
export async function showPostChange(
  ctx: ProcessorContext,
  origin: Origin,
  post: Post,
  note: string,
  done: string,
  card?: CardRef,
): Promise<void> {
  await updateCards(ctx, post, note, card);
  if (origin.source === 'button') return;
  await tell(ctx, origin, withPostLink(done, post));
}

/**
 * A success outcome `text` (plain words: render escapes them) followed by a link to the post,
 * labelled by its title (or its id); the label alone when the post has no usable url.
 */
export function withPostLink(text: string, post: Post): Outcome {
  const label = post.title?.replace(/\s+/g, ' ').trim() || `post ${post.id}`;
  return success(text, { link: { url: post.url ?? '', label } });
}
