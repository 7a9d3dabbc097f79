/**
 * The Comment button of a post card: opens the comment form (views.open needs the trigger_id
 * within 3 s, so nothing else happens first). The form remembers the post and the card.
 */
import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { tellNow } from '../../../engine/tellNow.ts';
import { problem } from '../../../render/messages.ts';
import { commentModal } from '../../../render/modals.ts';
import { parseCardActionValue } from '../../../render/postCard.ts';
import { authorisedTeam } from '../authorised.ts';
import type { ListenerDeps } from '../deps.ts';
import { encodeMetadata } from '../payloads.ts';
import { NOT_UNDERSTOOD, NOT_UNDERSTOOD_HINT } from '../shared.ts';
import { readMessageClick } from './click.ts';

type Args = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

export function commentButton(deps: ListenerDeps) {
  return async ({ body, action, ack, respond, client, context }: Args): Promise<void> => {
    await ack();
    const click = readMessageClick(body, action, authorisedTeam(context));
    const card = click ? parseCardActionValue(click.value) : undefined;
    if (!click || !card) {
      deps.logger.warn('malformed comment button click');
      await tellNow(
        { respond, client, logger: deps.logger, userId: body.user?.id, slackChannel: body.channel?.id },
        problem(NOT_UNDERSTOOD, NOT_UNDERSTOOD_HINT),
      );
      return;
    }
    try {
      await client.views.open({
        trigger_id: click.triggerId,
        view: commentModal({
          postId: card.postId,
          privateMetadata: encodeMetadata({
            slackChannel: click.slackChannel,
            ...(click.threadTs ? { threadTs: click.threadTs } : {}),
            ...(click.responseUrl ? { responseUrl: click.responseUrl, responseUrlAt: Date.now() } : {}),
            postId: card.postId,
            card: { slackChannel: click.slackChannel, ts: click.ts },
          }),
        }),
      });
    } catch (error) {
      deps.logger.warn({ err: error }, 'views.open failed for the comment form');
      await tellNow(
        { respond, client, logger: deps.logger, userId: click.userId, slackChannel: click.slackChannel },
        problem('I could not open the comment form.', 'Click Comment again.'),
      );
    }
  };
}
