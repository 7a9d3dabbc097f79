/**
 * slackChannelChanged: Slack said a channel was archived, deleted or that the bot left it (its
 * feed and digests pause), or that it was unarchived or the bot is back in it (they resume).
 */
import type { PauseReason } from '../../store/slackChannels.ts';
import { changeSlackChannel } from '../channelPause.ts';
import type { Processor } from '../context.ts';

const PAUSES: Record<string, PauseReason> = { archived: 'archived', deleted: 'deleted', removed: 'removed' };

export const slackChannelChanged: Processor<'slackChannelChanged'> = async (data, ctx) => {
  const reason = PAUSES[data.change];
  await changeSlackChannel(
    ctx,
    data.slackChannel,
    reason ? { paused: true, reason, at: data.at } : { paused: false, at: data.at },
  );
};
