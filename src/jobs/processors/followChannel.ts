/**
 * followChannel: the Slack channel follows the collaboration channel it is linked to. The
 * watermark is taken now (one request), so nothing old is posted; then a job scheduler polls
 * every FEED_POLL_INTERVAL_MS.
 */

import { hasFilters } from '../../collab/postFilters.ts';
import { tell, UserError } from '../../engine/index.ts';
import { filtersText } from '../../render/filters.ts';
import { success } from '../../render/messages.ts';
import { commandOf, type Processor } from '../context.ts';
import { currentWatermark, feedSchedulerId } from '../feeds.ts';

export const notLinkedToFollow = (command: string) =>
  `This Slack channel is not linked to a collaboration channel, so there is nothing to follow. Link it first — \`${command} link #engineering\` — then follow it.`;

export const followChannel: Processor<'followChannel'> = async (data, ctx) => {
  const { origin } = data;
  const slackChannel = origin.slackChannel;
  const link = await ctx.store.links.get(ctx.teamId, slackChannel);
  if (!link) throw new UserError(notLinkedToFollow(commandOf(ctx)));

  const existing = await ctx.store.feeds.get(ctx.teamId, slackChannel);
  const already = existing?.channelId === link.channelId && existing.watermark !== undefined;
  // Filters given replace the follow's; none given keep them. `{}` (follow all) clears them.
  const asked = data.filters === undefined ? existing?.filters : data.filters;
  const filters = hasFilters(asked) ? asked : undefined;
  if (!already) {
    const watermark = await ctx.once('watermark', () => currentWatermark(ctx, link.channelId));
    await ctx.store.feeds.start(ctx.teamId, slackChannel, {
      channelId: link.channelId,
      followedBy: origin.userId,
      followedAt: new Date().toISOString(),
      watermark,
      since: watermark.at,
      ...(filters ? { filters } : {}),
    });
  } else if (data.filters !== undefined) {
    // New filters, same feed: the watermark (and what was carded) stays.
    const { filters: _old, ...rest } = existing;
    await ctx.store.feeds.save(ctx.teamId, slackChannel, { ...rest, ...(filters ? { filters } : {}) });
  }
  await ctx.schedules.upsert(
    feedSchedulerId(ctx.teamId, slackChannel),
    { everyMs: ctx.polling.feedIntervalMs },
    'pollFeed',
    { teamId: ctx.teamId, slackChannel },
  );
  const every = everyText(ctx.polling.feedIntervalMs);
  const which = filtersText(filters);
  const shown = which ? `New posts shown: ${which}.` : 'Every new post is shown.';
  await tell(
    ctx,
    origin,
    success(
      already
        ? data.filters !== undefined
          ? `This channel follows #${link.channelName}, with new filters: ${shown} I check it ${every}.`
          : `This channel already follows #${link.channelName}; I check it ${every}. ${shown}`
        : `Following #${link.channelName}: new posts get a card here, and cards update (with a note in their thread) when a post is resolved, reopened or commented. ${shown} I check ${every}.`,
    ),
  );
};

/** "every minute", "every 30 seconds", "every 5 minutes". */
export function everyText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds % 60 === 0) {
    const minutes = seconds / 60;
    return minutes === 1 ? 'every minute' : `every ${minutes} minutes`;
  }
  return seconds === 1 ? 'every second' : `every ${seconds} seconds`;
}
