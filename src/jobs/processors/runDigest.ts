/** A digest of the Slack channel now, covering the time since its digests last ran (`/collab digest run`). */

import { tell, UserError } from '../../engine/index.ts';
import { success } from '../../render/messages.ts';
import type { Processor } from '../context.ts';
import { postDigest, scopeOf } from '../digestPost.ts';

export const PAUSED_DIGEST =
  'I could not post the digest here: I am not in this channel. Invite me (`/invite @Collab`); this channel’s digests and feed resume when I am back.';

/** A digest run by hand with no earlier digest covers this much. */
const FIRST_RUN_WINDOW_MS = 24 * 3600_000;

export const runDigest: Processor<'runDigest'> = async (data, ctx) => {
  const { origin } = data;
  const until = ctx.job.timestamp;
  const digests = await ctx.store.digests.list(ctx.teamId, origin.slackChannel);
  const lasts = await Promise.all(digests.map((d) => ctx.store.digests.lastUntil(ctx.teamId, d.id)));
  const known = lasts.filter((t): t is number => t !== undefined && t < until);
  const since = known.length ? Math.max(...known) : until - FIRST_RUN_WINDOW_MS;
  const link = await ctx.store.links.get(ctx.teamId, origin.slackChannel);
  // The channel's digests' filters when they all agree; every post otherwise.
  const shared = new Set(digests.map((d) => JSON.stringify(d.filters ?? {})));
  const filters = shared.size === 1 ? digests[0]?.filters : undefined;
  const outcome = await postDigest(ctx, origin.slackChannel, { since, until }, scopeOf(link), link, {
    quietNote: false,
    filters,
    watchers: digests.map((d) => d.id),
  });
  if (outcome === 'paused') throw new UserError(PAUSED_DIGEST);
  for (const digest of digests) await ctx.store.digests.setLastUntil(ctx.teamId, digest.id, until);
  const where = link ? `#${link.channelName}` : 'all channels';
  await tell(
    ctx,
    origin,
    outcome === 'posted'
      ? success(`Digest of ${where} posted.`)
      : success(`Nothing changed in ${where} since the last digest, so nothing was posted.`),
  );
};
