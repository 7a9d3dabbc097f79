/** Where a digest's schedule lives, and removing a Slack channel's digests with their schedules. */
import type { ProcessorContext } from './context.ts';
import { schedulerId } from './schedules.ts';

/** The id of a digest's job scheduler. */
export const digestSchedulerId = (teamId: string, digestId: string) =>
  schedulerId(teamId, 'digest', digestId);

/** Removes every digest of a Slack channel (its link was removed); answers how many. */
export async function removeChannelDigests(ctx: ProcessorContext, slackChannel: string): Promise<number> {
  const digests = await ctx.store.digests.list(ctx.teamId, slackChannel);
  for (const digest of digests) {
    await ctx.schedules.remove(digestSchedulerId(ctx.teamId, digest.id));
    await ctx.store.digests.remove(ctx.teamId, digest.id);
  }
  return digests.length;
}
