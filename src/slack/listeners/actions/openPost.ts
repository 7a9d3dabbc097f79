/** The Open button of a post card is a link: Slack opens the url and still sends an action, which we only ack. */
import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';

export function openPostButton() {
  return async ({ ack }: SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs): Promise<void> => {
    await ack();
  };
}
