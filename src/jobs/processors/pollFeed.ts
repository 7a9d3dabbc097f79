/** pollFeed: one tick of a channel feed's scheduler (see feeds.ts). */
import type { Processor } from '../context.ts';
import { pollFeedOnce } from '../feeds.ts';

export const pollFeed: Processor<'pollFeed'> = async (data, ctx) => {
  await pollFeedOnce(ctx, data.slackChannel);
};
