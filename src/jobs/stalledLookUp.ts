/**
 * A resolve or reopen whose job stalled out (every run stopped, BullMQ failed it) left no mark of
 * its send (steps.ts, SENT_OUTSIDE_LOG). Before the person hears "it may have gone through", the
 * service is asked what the post shows now: when it shows what they asked for, they are told so,
 * as a run that finished would have told them.
 *
 * Only a post that shows the asked-for state is an answer. An open post after a resolve is not
 * proof that it failed (a run that froze, not died, may still send it), and a service that does not
 * answer proves nothing: both leave the "may have gone through" warning as it was.
 */
import type { CollabClient } from '../collab/client.ts';
import { isCollabError } from '../collab/errors.ts';
import { isResolved } from '../collab/schemas.ts';
import type { Logger } from '../logger.ts';
import type { PostRef } from '../operations/schemas.ts';
import type { Store } from '../store/index.ts';
import type { SlackMessage } from './delivery.ts';
import { withPostLink } from './postChange.ts';
import { resolvePostId } from './resolveRefs.ts';

/** What each operation sent outside the log leaves the post showing, and the word for it. */
const ASKED: Record<string, { resolved: boolean; done: string }> = {
  resolvePost: { resolved: true, done: 'Resolved' },
  unresolvePost: { resolved: false, done: 'Reopened' },
};

/**
 * The outcome message of a stalled-out `operation` when the service shows it done; undefined when
 * it does not, when the post cannot be named (a link the bot never saw), or when the service does
 * not answer (logged).
 */
export async function doneInService(
  where: { collab: CollabClient; store: Store; teamId: string; logger: Logger },
  operation: string,
  data: { post?: PostRef },
): Promise<SlackMessage | undefined> {
  const asked = ASKED[operation];
  const ref = data.post;
  if (!asked || !ref) return undefined;
  try {
    const post = await where.collab.getPost(await resolvePostId(where, ref));
    return isResolved(post) === asked.resolved ? withPostLink(asked.done, post) : undefined;
  } catch (error) {
    where.logger.info(
      { err: isCollabError(error) ? error.toJSON() : error, operation },
      'stalled-out operation: could not look the post up',
    );
    return undefined;
  }
}
