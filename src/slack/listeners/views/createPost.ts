/**
 * The post form: content required (≤ 40,000 characters); the channel picked, or else the one
 * linked to the Slack channel the form was opened in. One createPost job; the modal closes.
 */
import { TEXT_MAX, TITLE_MAX } from '../../../operations/limits.ts';
import { INPUTS } from '../../../render/ids.ts';
import { parseChannelOption, titleTooLongText } from '../../../render/modals.ts';
import type { ListenerDeps } from '../deps.ts';
import { PostModalMetadata } from '../payloads.ts';
import { STORE_DOWN } from '../shared.ts';
import { enqueueSubmission, readSubmission, showErrors, tooLong, type ViewArgs } from './submission.ts';

export const CHANNEL_NEEDED = 'Pick a channel — this Slack channel is not linked to one';

export function createPostView(deps: ListenerDeps) {
  return async (args: ViewArgs): Promise<void> => {
    const submission = await readSubmission(deps, args, PostModalMetadata, 'post');
    if (!submission) return;
    const content = submission.text(INPUTS.content);
    const title = submission.text(INPUTS.title);
    const errors: Record<string, string> = {};
    if (content === '') errors[INPUTS.content.block] = 'Write the post.';
    const contentTooLong = tooLong(content, TEXT_MAX);
    if (contentTooLong) errors[INPUTS.content.block] = contentTooLong;
    if (title.length > TITLE_MAX) errors[INPUTS.title.block] = titleTooLongText(title.length);

    const selected = submission.selected(INPUTS.channel);
    const picked = selected ? parseChannelOption(selected) : undefined;
    if (!picked) {
      let linked: boolean;
      try {
        linked =
          (await deps.store.links.get(submission.teamId, submission.metadata.slackChannel)) !== undefined;
      } catch (error) {
        deps.logger.error({ err: error }, 'could not read the channel link');
        await showErrors(args, { [INPUTS.content.block]: STORE_DOWN });
        return;
      }
      if (!linked) errors[INPUTS.channel.block] = CHANNEL_NEEDED;
    }
    if (Object.keys(errors).length > 0) {
      await showErrors(args, errors);
      return;
    }

    const { fromMessage } = submission.metadata;
    await enqueueSubmission(
      deps,
      args,
      submission,
      'createPost',
      (origin) => ({
        origin,
        // absent: the processor posts in the channel linked to origin.slackChannel
        ...(picked ? { channel: { id: picked.id } } : {}),
        ...(title ? { title } : {}),
        content,
        ...(fromMessage ? { fromMessage } : {}),
      }),
      INPUTS.content.block,
    );
  };
}
