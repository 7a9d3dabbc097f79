/** unlinkChannel: forgets the Slack channel's link. */
import { success } from '../../slack/render/messages.ts';
import type { Processor } from '../context.ts';
import { tell } from './tell.ts';

export const unlinkChannel: Processor<'unlinkChannel'> = async (data, ctx) => {
  const { origin } = data;
  const removed = await ctx.store.links.remove(ctx.teamId, origin.slackChannel);
  await tell(
    ctx,
    origin,
    success(removed ? `Unlinked from #${removed.channelName}.` : 'This Slack channel was not linked.'),
  );
};
