/**
 * createComment: comments on a post as the Slack person (a command, a modal, or a reply in a
 * card's thread bridged by the events listener), and refreshes the post's cards.
 */
import { isCollabError } from '../../collab/errors.ts';
import type { CreateCommentInput } from '../../collab/schemas.ts';
import { tell, UserError } from '../../engine/index.ts';
import type { Origin } from '../../operations/schemas.ts';
import { updateCards } from '../cards.ts';
import { commentLease } from '../commentLease.ts';
import type { Processor, ProcessorContext } from '../context.ts';
import { displayName } from '../people.ts';
import { aboutPost, withPostLink } from '../postChange.ts';
import { code, ifFound, isNotFound, noPostFor, orNotFound, resolvePostId } from '../resolveRefs.ts';
import { escapeMarkdown } from '../text.ts';

/** The step value of the create: the comment id, `null` when recovered (see below). */
interface Landed {
  commentId: string | null;
}

export const createComment: Processor<'createComment'> = async (data, ctx) => {
  const { origin } = data;
  const postId = await resolvePostId(ctx, data.post);
  const name = await displayName(ctx, origin.userId);
  const input: CreateCommentInput = {
    content_markdown: `*${escapeMarkdown(name)}* via Slack:\n${data.text}`,
    ...(data.parentId ? { parent_id: data.parentId } : {}),
  };

  // Until the comment is known to have landed or not, no other comment of the app goes on this
  // post (commentLease.ts): the count it is measured against then moves only with this one.
  const lease = commentLease(ctx, postId);
  await lease.take();
  // The post as it was before the first attempt: its comment count is the recover's yardstick.
  const before = await ctx.once('before', () =>
    orNotFound(
      () => ctx.collab.getPost(postId),
      () => noPostFor(ctx, postId, origin),
    ),
  );
  aboutPost(ctx, before);
  const landed = await ctx.once<Landed>(
    'comment',
    async () => {
      try {
        return { commentId: (await ctx.collab.createComment(postId, input)).id };
      } catch (error) {
        if (!isNotFound(error)) throw error;
        throw new UserError(await missingOf(ctx, postId, data.parentId, origin));
      }
    },
    // The spec has no endpoint that lists comments, so an ambiguous create can only be told by
    // the post's comments_count: grown since `before` → taken as landed. Its id is then unknown
    // (the reply is not remembered). The lease keeps the app's other comments off the post
    // meanwhile; a person commenting in the service in between would still be mistaken for ours.
    async () => {
      const now = await ctx.collab.getPost(postId);
      return (now.comments_count ?? 0) > (before.comments_count ?? 0) ? { commentId: null } : undefined;
    },
  );
  await lease.release();
  if (data.reply && landed.commentId) {
    await ctx.store.cards.rememberReply(ctx.teamId, data.reply, { postId, commentId: landed.commentId });
  }

  // The comment is in the service: what follows only shows it in Slack, and a failure to read the
  // post back must not make it a failed operation (nor a retry that says it will "add the comment
  // again"). The cards then keep their count until the post next changes.
  const post = await ctx.collab.getPost(postId).catch((error: unknown) => {
    if (!isCollabError(error)) throw error;
    ctx.logger.info(
      { err: error.toJSON(), attempt: ctx.job.attemptsMade + 1 },
      'comment added; the post could not be read back for its cards',
    );
    return undefined;
  });
  if (post) await updateCards(ctx, post, undefined, data.card);
  // A bridged Slack reply is its own record in Slack: success stays quiet (failures are told by the worker).
  if (origin.source === 'event') return;
  await tell(ctx, origin, withPostLink('Comment added to', post ?? before));
};

/**
 * What a 404 of the create names: the post, or — for a reply — the comment it answers (the service
 * answers 404 for an unknown parent too). The post was there when the run began; a look tells which.
 */
async function missingOf(
  ctx: ProcessorContext,
  postId: string,
  parentId: string | undefined,
  origin: Origin,
): Promise<string> {
  if (parentId === undefined || !(await ifFound(() => ctx.collab.getPost(postId)))) {
    return noPostFor(ctx, postId, origin);
  }
  return `Post ${code(postId)} has no comment with id ${code(parentId)}. Leave out \`parent:\` to comment on the post itself.`;
}
