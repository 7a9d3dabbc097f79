/**
 * publishHome: the Home tab of one person — the workspace sections (connection, settings changes:
 * home.ts) and what the service sends back (homeSections.ts): whether the service answers and
 * accepts the key (a harmless `listChannels({ limit: 1 })` with a short timeout, cached a minute),
 * linked and followed channels, digests with their next run, and the person's recent operations.
 * Runs in the worker so the listener never waits on the service.
 */

import { isCollabError } from '../collab/errors.ts';
import type { JobData } from '../operations/schemas.ts';
import { filtersText } from '../render/filters.ts';
import { homeView } from '../render/home.ts';
import type { HomeActivity, ServiceStatus } from '../render/homeState.ts';
import { slackErrorCode } from '../slackapi/errors.ts';
import type { ProcessorContext } from './context.ts';
import { digestSchedulerId } from './digestSchedules.ts';
import { teamSchedulerPrefix } from './schedules.ts';

/** How long one check of the service is trusted. */
export const SERVICE_CHECK_TTL_SECONDS = 60;
/** The check waits this long at most. */
const SERVICE_CHECK_TIMEOUT_MS = 3000;
const CACHE_NAME = 'service-check';

/** The service check, cached a minute per team. Never throws. */
export async function serviceStatus(ctx: ProcessorContext): Promise<ServiceStatus> {
  const cached = await ctx.store.cache.get<ServiceStatus>(ctx.teamId, CACHE_NAME);
  if (cached && typeof cached.state === 'string' && typeof cached.checkedAt === 'number') return cached;
  let status: ServiceStatus;
  const checkedAt = Date.now();
  try {
    await ctx.collab.listChannels({ limit: 1 }, { signal: AbortSignal.timeout(SERVICE_CHECK_TIMEOUT_MS) });
    status = { state: 'ok', checkedAt };
  } catch (error) {
    if (!isCollabError(error)) status = { state: 'unreachable', checkedAt };
    else if (error.reason === 'unauthorized' || error.reason === 'forbidden') {
      status = { state: 'rejected', checkedAt, detail: error.status ? `(HTTP ${error.status})` : undefined };
    } else if (error.reason === 'network' || error.reason === 'timeout' || error.reason === 'reset') {
      status = { state: 'unreachable', checkedAt };
    } else
      status = { state: 'error', checkedAt, detail: error.status ? `(HTTP ${error.status})` : undefined };
  }
  await ctx.store.cache.set(ctx.teamId, CACHE_NAME, status, SERVICE_CHECK_TTL_SECONDS);
  return status;
}

/** Everything the activity sections show, read from the store, the schedulers and the service. */
export async function homeActivity(ctx: ProcessorContext, userId: string): Promise<HomeActivity> {
  const feedPrefix = `${teamSchedulerPrefix(ctx.teamId)}feed-`;
  const [service, stretch, links, feeds, digests, recent, pausedChannels] = await Promise.all([
    serviceStatus(ctx),
    ctx.pollStretch ? ctx.pollStretch().catch(() => 1) : 1,
    ctx.store.links.list(ctx.teamId),
    ctx.schedules.list(feedPrefix),
    ctx.store.digests.list(ctx.teamId),
    ctx.store.recent.list(ctx.teamId, userId, 10),
    ctx.store.slackChannels.paused(ctx.teamId),
  ]);
  const notify = await ctx.store.notifications.get(ctx.teamId, userId);
  const paused = await Promise.all(
    pausedChannels.map(async ({ slackChannel, state }) => ({
      slackChannel,
      reason: state.reason ?? ('removed' as const),
      since: state.at,
      feed: (await ctx.store.feeds.get(ctx.teamId, slackChannel)) !== undefined,
      digests: digests.filter((d) => d.slackChannel === slackChannel).length,
    })),
  );
  // Feed schedulers are `schedulerId(teamId, 'feed', slackChannel)`; a paused feed has none.
  const followed = new Set(feeds.map((f) => f.id.slice(feedPrefix.length)));
  for (const p of paused) if (p.feed) followed.add(p.slackChannel.replace(/[:\s]/g, '_'));
  const linked = new Set(links.map((l) => l.slackChannel.replace(/[:\s]/g, '_')));
  const nexts = await Promise.all(digests.map((d) => ctx.schedules.get(digestSchedulerId(ctx.teamId, d.id))));
  return {
    service,
    polling: { feedEveryMs: ctx.polling.feedIntervalMs, stretch },
    links: await Promise.all(
      links.map(async (l) => {
        const isFollowed = followed.has(l.slackChannel.replace(/[:\s]/g, '_'));
        const feed = isFollowed ? await ctx.store.feeds.get(ctx.teamId, l.slackChannel) : undefined;
        return {
          slackChannel: l.slackChannel,
          channelName: l.link.channelName,
          followed: isFollowed,
          bridgeReplies: l.link.bridgeReplies,
          filters: filtersText(feed?.filters),
        };
      }),
    ),
    followedOnly: [...followed].filter((c) => !linked.has(c)).sort(),
    digests: digests.map((d, i) => ({
      id: d.id,
      slackChannel: d.slackChannel,
      label: d.label,
      tz: d.tz,
      next: nexts[i]?.next,
      filters: filtersText(d.filters),
    })),
    recent,
    paused,
    notify: { on: notify?.on === true, tz: notify?.tz },
  };
}

/** Builds the person's App Home from the store, the schedulers and the service, and publishes it. */
export async function publishHomeOf(ctx: ProcessorContext, data: JobData<'publishHome'>): Promise<void> {
  const { userId } = data;
  const [activity, connection, audit] = await Promise.all([
    homeActivity(ctx, userId),
    data.mode === 'multi' ? ctx.store.connections?.status(ctx.teamId) : Promise.resolve(undefined),
    data.canManage ? ctx.store.audit.recent(ctx.teamId, 10) : Promise.resolve([]),
  ]);
  const view = homeView({
    teamId: ctx.teamId,
    userId,
    mode: data.mode,
    connection,
    canManage: data.canManage,
    audit,
    command: data.command,
    activity,
  });
  try {
    await ctx.slack.views.publish({ user_id: userId, view });
  } catch (error) {
    // Home is refreshed on the next open; a Slack failure here is not the person's problem.
    ctx.logger.warn({ err: slackErrorCode(error) }, 'views.publish failed');
  }
}
