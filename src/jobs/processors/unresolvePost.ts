/** unresolvePost: reopens a resolved post, updates its cards. */
import type { Processor } from '../context.ts';
import { displayName } from '../people.ts';
import { showPostChange } from '../postChange.ts';
import { noPostFor, orNotFound, resolvePostId } from '../resolveRefs.ts';

export const unresolvePost: Processor<'unresolvePost'> = async (data, ctx) => {
  const { origin } = data;
  const postId = await resolvePostId(ctx, data.post);
  const name = await displayName(ctx, origin.userId);
  // Reopening again is harmless (an open post answers as it is): not a step of the log (steps.ts,
  // SENT_OUTSIDE_LOG).
  const post = await orNotFound(
    () => ctx.collab.unresolvePost(postId),
    () => noPostFor(ctx, postId, origin),
  );
  ctx.sentLanded();
  await showPostChange(ctx, origin, post, { done: 'Reopened', by: name }, data.card);
};
