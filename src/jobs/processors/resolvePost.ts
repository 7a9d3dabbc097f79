/** resolvePost: resolves a post (saying who resolved it, with the person's message or a resolving comment), updates its cards. */
import type { ResolvePostInput } from '../../collab/schemas.ts';
import type { Processor } from '../context.ts';
import { displayName } from '../people.ts';
import { showPostChange } from '../postChange.ts';
import { noPostFor, orNotFound, resolvePostId } from '../resolveRefs.ts';
import { escapeMarkdown } from '../text.ts';

export const resolvePost: Processor<'resolvePost'> = async (data, ctx) => {
  const { origin } = data;
  const postId = await resolvePostId(ctx, data.post);
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
  // the post): not a step of the log (steps.ts, SENT_OUTSIDE_LOG). A run that comes back (a
  // retry, a re-run after a crash) simply resolves again, and the log carries no copy of the post.
  const post = await orNotFound(
    () => ctx.collab.resolvePost(postId, input),
    () => noPostFor(ctx, postId, origin),
  );
  ctx.sentLanded();
  await showPostChange(ctx, origin, post, { done: 'Resolved', by: name }, data.card);
};
