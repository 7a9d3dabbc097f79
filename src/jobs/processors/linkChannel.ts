/** linkChannel: links the Slack channel to a channel of the service (where `/collab post` goes). */

import { tell } from '../../engine/index.ts';
import { success } from '../../render/messages.ts';
import { commandOf, type Processor } from '../context.ts';
import { resolveChannel } from '../resolveRefs.ts';

export const linkChannel: Processor<'linkChannel'> = async (data, ctx) => {
  const { origin } = data;
  const channel = await resolveChannel(ctx, data.channel);
  await ctx.store.links.set(ctx.teamId, origin.slackChannel, {
    channelId: channel.id,
    channelName: channel.name,
    bridgeReplies: data.bridgeReplies,
    linkedBy: origin.userId,
    linkedAt: new Date().toISOString(),
  });
  const replies = data.bridgeReplies ? ", and replies in a card's thread become comments" : '';
  await tell(
    ctx,
    origin,
    success(
      `Linked this Slack channel to #${channel.name}: \`${commandOf(ctx)} post\` goes there${replies}.`,
    ),
  );
};
