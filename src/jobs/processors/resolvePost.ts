/** resolvePost: resolves a post (with the person's message or a resolving comment), updates its cards. */
import type { ResolvePostInput } from '../../collab/schemas.ts';
import type { Processor } from '../context.ts';
import { displayName } from './people.ts';
import { showPostChange } from './postChange.ts';
import { noPost, orNotFound, resolvePostId } from './resolveRefs.ts';
import { escapeMarkdown } from './text.ts';

export const resolvePost: Processor<'resolvePost'> = async (data, ctx) => {
  const { origin } = data;
  const postId = await resolvePostId(ctx, data.post);
  const name = await displayName(ctx, origin.userId);
  // No message: no content_markdown at all (never an empty or attribution-only message).
  const message = data.message?.trim();
  const input: ResolvePostInput = {
    ...(message
      ? { content_markdown: `${message}\n\n_Resolved from Slack by ${escapeMarkdown(name)}_` }
      : {}),
    ...(data.commentId ? { comment_id: data.commentId } : {}),
  };
  // Resolving again is harmless (the service answers the post either way), so no recover is needed.
  const post = await ctx.once('resolve', () =>
    orNotFound(() => ctx.collab.resolvePost(postId, input, { signal: ctx.signal }), noPost(postId)),
  );
  await showPostChange(ctx, origin, post, { done: 'Resolved', by: name }, data.card);
};
