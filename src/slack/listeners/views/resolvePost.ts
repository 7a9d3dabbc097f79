/**
 * The resolve form: an optional message; when opened on a bridged reply, that reply's comment
 * is the resolving comment. One resolvePost job; the modal closes.
 */
import { TEXT_MAX } from '../../../operations/limits.ts';
import { INPUTS } from '../../../render/ids.ts';
import type { ListenerDeps } from '../deps.ts';
import { ResolveModalMetadata } from '../payloads.ts';
import { enqueueSubmission, readSubmission, showErrors, tooLong, type ViewArgs } from './submission.ts';

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
    await enqueueSubmission(
      deps,
      args,
      submission,
      'resolvePost',
      (origin) => ({
        origin,
        post: { id: postId },
        ...(message ? { message } : {}),
        ...(commentId ? { commentId } : {}),
        ...(card ? { card } : {}),
      }),
      INPUTS.resolution.block,
    );
  };
}
