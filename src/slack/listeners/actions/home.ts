/**
 * App Home's quick actions: New post opens the post form (the card then goes to the person's
 * conversation with the app: Home has no channel), Help opens the help in a modal.
 */
import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { View } from '@slack/types';
import { helpMessage } from '../../render/help.ts';
import { LIMITS, plain } from '../../render/limits.ts';
import { createPostModal } from '../../render/modals.ts';
import type { ListenerDeps } from '../deps.ts';
import { encodeMetadata } from '../payloads.ts';

type Args = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

export function helpModal(command: string): View {
  return {
    type: 'modal',
    title: plain('Help', LIMITS.modalTitle),
    close: plain('Close', LIMITS.modalButton),
    blocks: helpMessage(command).blocks.slice(0, LIMITS.modalBlocks),
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
