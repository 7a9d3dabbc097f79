/** The Slack channel's digests, with their next runs (`/collab digest list`). */

import { tell } from '../../engine/index.ts';
import { digestListMessage } from '../../render/digest.ts';
import { filtersText } from '../../render/filters.ts';
import { commandOf, type Processor } from '../context.ts';
import { scopeOf } from '../digestPost.ts';
import { digestSchedulerId } from '../digestSchedules.ts';

export const listDigests: Processor<'listDigests'> = async (data, ctx) => {
  const { origin } = data;
  const digests = await ctx.store.digests.list(ctx.teamId, origin.slackChannel);
  const entries = await Promise.all(
    digests.map(async (d) => ({
      id: d.id,
      label: d.label,
      tz: d.tz,
      next: (await ctx.schedules.get(digestSchedulerId(ctx.teamId, d.id)))?.next,
      filters: filtersText(d.filters),
    })),
  );
  const link = await ctx.store.links.get(ctx.teamId, origin.slackChannel);
  await tell(ctx, origin, digestListMessage(entries, { ...scopeOf(link), command: commandOf(ctx) }));
};
