/**
 * App Home's quick actions: New post opens the post form (the card then goes to the person's
 * conversation with the app: Home has no channel), Help opens the help in a modal.
 */
import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { View } from '@slack/types';
import { helpMessage } from '../../../render/help.ts';
import { LIMITS, plain } from '../../../render/limits.ts';
import { createPostModal } from '../../../render/modals.ts';
import { authorisedTeam } from '../authorised.ts';
import { HELP_GROUPS } from '../commands/subcommands/index.ts';
import type { ListenerDeps } from '../deps.ts';
import { encodeMetadata } from '../payloads.ts';
import { enqueue } from '../shared.ts';
import { homeState } from '../workspace.ts';

type Args = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

export function helpModal(command: string): View {
  return {
    type: 'modal',
    title: plain('Help', LIMITS.modalTitle),
    close: plain('Close', LIMITS.modalButton),
    blocks: helpMessage(command, HELP_GROUPS).blocks.slice(0, LIMITS.modalBlocks),
  };
}

export function homeNewPostButton(deps: ListenerDeps) {
  return async ({ body, ack, client }: Args): Promise<void> => {
    await ack();
    try {
      await client.views.open({
        trigger_id: body.trigger_id,
        view: createPostModal({ privateMetadata: encodeMetadata({ slackChannel: body.user.id }) }),
      });
    } catch (error) {
      deps.logger.warn({ err: error }, 'views.open failed for the post form from App Home');
    }
  };
}

export function homeHelpButton(deps: ListenerDeps) {
  return async ({ body, ack, client }: Args): Promise<void> => {
    await ack();
    try {
      await client.views.open({ trigger_id: body.trigger_id, view: helpModal(deps.command) });
    } catch (error) {
      deps.logger.warn({ err: error }, 'views.open failed for the help from App Home');
    }
  };
}

/** The notifications toggle: turns the person's notifications over, through the queue. */
export function homeNotifyButton(deps: ListenerDeps) {
  return async ({ body, ack, action, context, client }: Args): Promise<void> => {
    await ack();
    const teamId = authorisedTeam(context);
    if (!teamId) return;
    const on = 'value' in action && action.value === 'on';
    const state = await homeState(deps, client, teamId, body.user.id);
    await enqueue(
      deps,
      'setNotify',
      {
        origin: {
          teamId,
          userId: body.user.id,
          slackChannel: body.user.id,
          receivedAt: Date.now(),
          source: 'button',
        },
        on,
        // The worker publishes Home again once the new state is saved.
        home: { canManage: state.canManage, mode: state.mode, command: state.command },
      },
      `notify:${body.user.id}:${body.trigger_id}`,
    );
  };
}
