/**
 * listFollows (`/collab follow list`): every followed Slack channel of the workspace — running
 * feeds (their schedulers) and paused ones — with the collaboration channel and the filters.
 */

import { tell } from '../../engine/index.ts';
import { filtersText } from '../../render/filters.ts';
import { type FollowListEntry, followListMessage } from '../../render/follows.ts';
import type { Processor } from '../context.ts';
import { schedulerId, teamSchedulerPrefix } from '../schedules.ts';

const PAUSED_WORDS = { archived: 'channel archived', deleted: 'channel deleted', removed: 'I was removed' };

export const listFollows: Processor<'listFollows'> = async (data, ctx) => {
  const feedPrefix = `${teamSchedulerPrefix(ctx.teamId)}feed-`;
  const [schedulers, links, paused] = await Promise.all([
    ctx.schedules.list(feedPrefix),
    ctx.store.links.list(ctx.teamId),
    ctx.store.slackChannels.paused(ctx.teamId),
  ]);
  // Scheduler ids hide the Slack channel's `:` and spaces: known channels are matched by id.
  const candidates = new Set([...links.map((l) => l.slackChannel), ...paused.map((p) => p.slackChannel)]);
  const running = new Set(schedulers.map((s) => s.id));
  const entries: FollowListEntry[] = [];
  for (const slackChannel of [...candidates].sort()) {
    const feed = await ctx.store.feeds.get(ctx.teamId, slackChannel);
    if (!feed) continue;
    const pause = paused.find((p) => p.slackChannel === slackChannel)?.state;
    if (!pause && !running.has(schedulerId(ctx.teamId, 'feed', slackChannel))) continue;
    const link = links.find((l) => l.slackChannel === slackChannel)?.link;
    entries.push({
      slackChannel,
      channelName: link?.channelName,
      filters: filtersText(feed.filters),
      paused: pause ? PAUSED_WORDS[pause.reason ?? 'removed'] : undefined,
    });
  }
  await tell(ctx, data.origin, followListMessage(entries, ctx.features?.command ?? '/collab'));
};
