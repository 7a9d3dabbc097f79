/** Removes a digest and its scheduler (`/collab digest remove`). */

import { tell, UserError } from '../../engine/index.ts';
import { success } from '../../render/messages.ts';
import { commandOf, type Processor } from '../context.ts';
import { digestSchedulerId } from '../digestSchedules.ts';

export const removeDigest: Processor<'removeDigest'> = async (data, ctx) => {
  const { origin, digestId } = data;
  const id = digestId.trim().toLowerCase();
  const removed = await ctx.store.digests.remove(ctx.teamId, id);
  const unscheduled = await ctx.schedules.remove(digestSchedulerId(ctx.teamId, id));
  if (!removed && !unscheduled) {
    throw new UserError(
      `There is no digest \`${digestId}\`. \`${commandOf(ctx)} digest list\` shows this channel's.`,
    );
  }
  await tell(ctx, origin, success(`Digest ${id} removed${removed ? ` (${removed.label})` : ''}.`));
};
