/** unlinkChannel: forgets the Slack channel's link. */

import { tell } from '../../engine/index.ts';
import { success } from '../../render/messages.ts';
import type { Processor } from '../context.ts';
import { removeChannelDigests } from '../digestSchedules.ts';
import { stopFeed } from '../feeds.ts';

export const unlinkChannel: Processor<'unlinkChannel'> = async (data, ctx) => {
  const { origin } = data;
  const removed = await ctx.store.links.remove(ctx.teamId, origin.slackChannel);
  // A feed follows the link: no link, no feed.
  await stopFeed(ctx, origin.slackChannel);
  // So do the channel's digests.
  const digests = await removeChannelDigests(ctx, origin.slackChannel);
  const digestNote =
    digests > 0 ? ` Its ${digests === 1 ? 'digest was' : `${digests} digests were`} removed.` : '';
  await tell(
    ctx,
    origin,
    success(
      removed
        ? `Unlinked from #${removed.channelName}.${digestNote}`
        : `This Slack channel was not linked.${digestNote}`,
    ),
  );
};
