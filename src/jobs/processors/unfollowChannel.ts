/** unfollowChannel: the Slack channel stops following its collaboration channel (scheduler and state removed). */

import { tell } from '../../engine/index.ts';
import { success } from '../../render/messages.ts';
import type { Processor } from '../context.ts';
import { stopFeed } from '../feeds.ts';

export const unfollowChannel: Processor<'unfollowChannel'> = async (data, ctx) => {
  const { origin } = data;
  const stopped = await stopFeed(ctx, origin.slackChannel);
  await tell(
    ctx,
    origin,
    success(
      stopped
        ? 'Stopped following: no more cards or notes from the feed here.'
        : 'This Slack channel was not following anything.',
    ),
  );
};
