/**
 * The resolve form: an optional message; when opened on a bridged reply, that reply's comment
 * is the resolving comment. One resolvePost job; the modal closes.
 */
import { TEXT_MAX } from '../../../jobs/schemas.ts';
import type { ListenerDeps } from '../../app.ts';
import { INPUTS } from '../../ids.ts';
import { ResolveModalMetadata } from '../payloads.ts';
import { enqueue } from '../shared.ts';
import {
  answerEnqueued,
  modalOrigin,
  readSubmission,
  showErrors,
  tooLong,
  type ViewArgs,
} from './submission.ts';

export function resolvePostView(deps: ListenerDeps) {
  return async (args: ViewArgs): Promise<void> => {
    const submission = await readSubmission(deps, args, ResolveModalMetadata, 'resolution');
    if (!submission) return;
    const message = submission.text(INPUTS.resolution);
    const error = tooLong(message, TEXT_MAX);
    if (error) {
      await showErrors(args, { [INPUTS.resolution.block]: error });
      return;
    }
    const { postId, commentId, card } = submission.metadata;
    const result = await enqueue(
      deps,
      'resolvePost',
      {
        origin: modalOrigin(submission, Date.now()),
        post: { id: postId },
        ...(message ? { message } : {}),
        ...(commentId ? { commentId } : {}),
        ...(card ? { card } : {}),
      },
      `view:${submission.viewId}`,
    );
    await answerEnqueued(args, result, INPUTS.resolution.block);
  };
}
