/**
 * The Next / Previous buttons of a list. The button carries a page-state id; the list's query
 * and cursor live in Redis (store.pages). The list operation runs again from that cursor and
 * replaces the list message in place.
 */
import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { tellNow } from '../../../engine/tellNow.ts';
import type { JobInput } from '../../../operations/schemas.ts';
import { problem } from '../../../render/messages.ts';
import type { PageState } from '../../../store/pages.ts';
import { authorisedTeam } from '../authorised.ts';
import type { ListenerDeps } from '../deps.ts';
import { enqueue, NOT_UNDERSTOOD, NOT_UNDERSTOOD_HINT, QUEUE_DOWN, STORE_DOWN } from '../shared.ts';
import { buttonKey, buttonOrigin, readMessageClick } from './click.ts';

type Args = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

export const LIST_EXPIRED = 'This list has expired; run the command again.';

export function pageButton(deps: ListenerDeps) {
  return async ({ body, action, ack, respond, client, context }: Args): Promise<void> => {
    const click = readMessageClick(body, action, authorisedTeam(context));
    const answer = (text: string, hint?: string) =>
      tellNow(
        {
          respond,
          client,
          logger: deps.logger,
          userId: click?.userId ?? body.user?.id,
          slackChannel: click?.slackChannel ?? body.channel?.id,
        },
        problem(text, hint),
      );
    if (!click) {
      await ack();
      deps.logger.warn('malformed list paging click');
      await answer(NOT_UNDERSTOOD, NOT_UNDERSTOOD_HINT);
      return;
    }
    let state: PageState | undefined;
    try {
      state = await deps.store.pages.load(click.teamId, click.value);
    } catch (error) {
      deps.logger.error({ err: error }, 'could not load list state');
      await ack();
      await answer(STORE_DOWN);
      return;
    }
    if (!state) {
      await ack();
      await answer(LIST_EXPIRED);
      return;
    }
    const data = {
      ...state.query,
      origin: buttonOrigin(click, Date.now()),
      cursor: state.cursor,
      direction: state.direction,
      ...(state.trail ? { trail: state.trail } : {}),
      replace: true,
    } as JobInput<typeof state.operation>;
    const result = await enqueue(deps, state.operation, data, buttonKey(click, click.value));
    await ack();
    if (result.status === 'unavailable') await answer(QUEUE_DOWN);
    else if (result.status === 'invalid') await answer(LIST_EXPIRED);
  };
}
