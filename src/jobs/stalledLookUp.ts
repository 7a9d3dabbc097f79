/**
 * A resolve or reopen whose job stalled out (every run stopped, BullMQ failed it) left no mark of
 * its send (steps.ts, SENT_OUTSIDE_LOG). Before the person hears "it may have gone through", the
 * service is asked what the post shows now: when it shows what they asked for, the post's cards
 * change and the person is told, as a run that finished would have done.
 *
 * Only a post that shows the asked-for state is an answer. An open post after a resolve is not
 * proof that it failed (a run that froze, not died, may still send it), and a service that does not
 * answer proves nothing: both leave the "may have gone through" warning as it was.
 */
import { isCollabError } from '../collab/errors.ts';
import { isResolved, type Post } from '../collab/schemas.ts';
import type { CardRef, Origin, PostRef } from '../operations/schemas.ts';
import type { ProcessorContext } from './context.ts';
import { displayName } from './people.ts';
import { POST_CHANGES, showPostChange } from './postChange.ts';
import { resolvePostId } from './resolveRefs.ts';

/**
 * Shows and tells a stalled-out `operation` as done when the service shows it done, and answers
 * true; false when it does not, when the post cannot be named (a link the bot never saw), or when
 * the service does not answer (logged).
 */
export async function showDoneInService(
  ctx: ProcessorContext,
  operation: string,
  data: { origin?: Origin; post?: PostRef; card?: CardRef },
): Promise<boolean> {
  const asked = Object.hasOwn(POST_CHANGES, operation)
    ? POST_CHANGES[operation as keyof typeof POST_CHANGES]
    : undefined;
  const { origin, post: ref } = data;
  if (!asked || !origin || !ref) return false;
  let found: Post;
  try {
    found = await ctx.collab.getPost(await resolvePostId(ctx, ref));
  } catch (error) {
    ctx.logger.info(
      { err: isCollabError(error) ? error.toJSON() : error, operation },
      'stalled-out operation: could not look the post up',
    );
    return false;
  }
  if (isResolved(found) !== asked.resolved) return false;
  const by = await displayName(ctx, origin.userId);
  await showPostChange(ctx, origin, found, { done: asked.done, by }, data.card);
  return true;
}
