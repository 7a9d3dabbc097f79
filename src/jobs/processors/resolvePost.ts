/** resolvePost: resolves a post (saying who resolved it, with the person's message or a resolving comment), updates its cards. */
import type { ResolvePostInput } from '../../collab/schemas.ts';
import type { Processor } from '../context.ts';
import { displayName } from '../people.ts';
import { showIfAlready, showPostChange } from '../postChange.ts';
import { noPostFor, orNotFound, resolvePostId } from '../resolveRefs.ts';
import { escapeMarkdown } from '../text.ts';

export const resolvePost: Processor<'resolvePost'> = async (data, ctx) => {
  const { origin } = data;
  const postId = await resolvePostId(ctx, data.post);
  const notFound = () => noPostFor(ctx, postId, origin);
  // A card's Resolve on a post resolved since the card was drawn: resolving again would replace
  // that resolution, its words included (the service has no state guard). Nothing is sent; the
  // card shows the post as it is. Every run looks: one that finds its own earlier resolve shows
  // that. A command or a modal names the post on purpose and resolves it anew, as the service allows.
  if (origin.source === 'button') {
    const want = { resolved: true, already: 'Already resolved', notFound };
    if (await showIfAlready(ctx, origin, postId, want, data.card)) return;
  }
  const name = await displayName(ctx, origin.userId);
  // The resolution always says who resolved it from Slack (every call goes out under the
  // organisation's one key); the person's message, when there is one, comes first.
  const message = data.message?.trim();
  const attribution = `_Resolved from Slack by ${escapeMarkdown(name)}_`;
  const input: ResolvePostInput = {
    content_markdown: message ? `${message}\n\n${attribution}` : attribution,
    ...(data.commentId ? { comment_id: data.commentId } : {}),
  };
  // Resolving again is harmless (the service overwrites the resolution with the same and answers
  // the post): not a step of the log (jobs/product.ts SENT_OUTSIDE_LOG). A run that comes back (a
  // retry, a re-run after a crash) simply resolves again, and the log carries no copy of the post.
  const post = await orNotFound(() => ctx.collab.resolvePost(postId, input), notFound);
  ctx.sentLanded();
  await showPostChange(ctx, origin, post, { done: 'Resolved', by: name }, data.card);
};
