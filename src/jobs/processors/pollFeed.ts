/**
 * pollFeed: one tick of a channel feed's scheduler (see feeds.ts). A paused Slack channel
 * (archived, deleted, the bot removed) is not polled; a poll whose card found the channel unable
 * to take posts pauses it and stops there, its watermark where it was, so nothing is lost.
 */

import { SlackChannelPausedError } from '../../slackapi/errors.ts';
import { changeSlackChannel, observedAt } from '../channelPause.ts';
import type { Processor } from '../context.ts';
import { pollFeedOnce } from '../feeds.ts';

export const pollFeed: Processor<'pollFeed'> = async (data, ctx) => {
  if (await ctx.store.slackChannels.isPaused(ctx.teamId, data.slackChannel)) return;
  try {
    await pollFeedOnce(ctx, data.slackChannel);
  } catch (error) {
    if (!(error instanceof SlackChannelPausedError)) throw error;
    await changeSlackChannel(ctx, data.slackChannel, {
      paused: true,
      reason: error.reason,
      at: observedAt(),
    });
  }
};
