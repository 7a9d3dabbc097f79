/**
 * The Resolve and Reopen buttons of a post card: one queued operation each, keyed on the card's
 * state so a double click runs once. Acked as soon as the job is queued; the worker updates the card.
 */
import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { tellNow } from '../../../engine/tellNow.ts';
import { problem } from '../../../render/messages.ts';
import { parseCardActionValue } from '../../../render/postCard.ts';
import { authorisedTeam } from '../authorised.ts';
import type { ListenerDeps } from '../deps.ts';
import { enqueue, NOT_UNDERSTOOD, NOT_UNDERSTOOD_HINT, QUEUE_DOWN } from '../shared.ts';
import { buttonKey, buttonOrigin, readMessageClick } from './click.ts';

type Args = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

export function cardStateButton(deps: ListenerDeps, operation: 'resolvePost' | 'unresolvePost') {
  return async ({ body, action, ack, respond, client, context }: Args): Promise<void> => {
    const click = readMessageClick(body, action, authorisedTeam(context));
    const card = click ? parseCardActionValue(click.value) : undefined;
    if (!click || !card) {
      await ack();
      deps.logger.warn({ operation }, 'malformed post card click');
      await tellNow(
        { respond, client, logger: deps.logger, userId: body.user?.id, slackChannel: body.channel?.id },
        problem(NOT_UNDERSTOOD, NOT_UNDERSTOOD_HINT),
      );
      return;
    }
    const data = {
      origin: buttonOrigin(click, Date.now()),
      post: { id: card.postId },
      card: { slackChannel: click.slackChannel, ts: click.ts },
    };
    const result = await enqueue(deps, operation, data, buttonKey(click, card.version));
    await ack();
    if (result.status === 'unavailable' || result.status === 'invalid') {
      await tellNow(
        { respond, client, logger: deps.logger, userId: click.userId, slackChannel: click.slackChannel },
        problem(result.status === 'unavailable' ? QUEUE_DOWN : NOT_UNDERSTOOD),
      );
    }
  };
}
