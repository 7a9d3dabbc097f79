/** unresolvePost: reopens a resolved post, updates its cards. */
import type { Processor } from '../context.ts';
import { displayName } from '../people.ts';
import { showIfAlready, showPostChange } from '../postChange.ts';
import { noPostFor, orNotFound, resolvePostId } from '../resolveRefs.ts';

export const unresolvePost: Processor<'unresolvePost'> = async (data, ctx) => {
  const { origin } = data;
  const postId = await resolvePostId(ctx, data.post);
  const notFound = () => noPostFor(ctx, postId, origin);
  // The service reopens an open post without a word (it answers the post as it is), so only a
  // look first tells the person there was nothing to reopen; its cards, stale if they offered
  // Reopen, show the post as it is, with no note. A later run (a retry, a re-run after a crash)
  // does not look: an earlier run may have reopened it.
  const want = { resolved: false, already: 'Already open, nothing to reopen:', notFound };
  if (!ctx.isRerun && (await showIfAlready(ctx, origin, postId, want, data.card))) return;
  const name = await displayName(ctx, origin.userId);
  // Reopening again is harmless (an open post answers as it is): not a step of the log, but sent
  // outside it (jobs/product.ts SENT_OUTSIDE_LOG; docs/engine.md).
  const post = await orNotFound(() => ctx.collab.unresolvePost(postId), notFound);
  ctx.sentLanded();
  await showPostChange(ctx, origin, post, { done: 'Reopened', by: name }, data.card);
};
