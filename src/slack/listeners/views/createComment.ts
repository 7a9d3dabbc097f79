/** The comment form: the comment is required (≤ 40,000 characters). One createComment job; the modal closes. */
import { TEXT_MAX } from '../../../operations/limits.ts';
import { INPUTS } from '../../../render/ids.ts';
import type { ListenerDeps } from '../deps.ts';
import { CommentModalMetadata } from '../payloads.ts';
import { enqueueSubmission, readSubmission, showErrors, tooLong, type ViewArgs } from './submission.ts';

export function createCommentView(deps: ListenerDeps) {
  return async (args: ViewArgs): Promise<void> => {
    const submission = await readSubmission(deps, args, CommentModalMetadata, 'comment');
    if (!submission) return;
    const text = submission.text(INPUTS.comment);
    const error = text === '' ? 'Write the comment.' : tooLong(text, TEXT_MAX);
    if (error) {
      await showErrors(args, { [INPUTS.comment.block]: error });
      return;
    }
    const { postId, card } = submission.metadata;
    await enqueueSubmission(
      deps,
      args,
      submission,
      'createComment',
      (origin) => ({ origin, post: { id: postId }, text, ...(card ? { card } : {}) }),
      INPUTS.comment.block,
    );
  };
}
