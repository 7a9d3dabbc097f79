/** Turns a person's notifications on or off (`/collab notify`, or App Home); jobs/notifications.ts tells what they hear. */

import { tell } from '../../engine/index.ts';
import { success } from '../../render/messages.ts';
import type { Processor } from '../context.ts';
import { publishHomeOf } from '../home.ts';
import { memberName, memberOf, slackTimeZone } from '../people.ts';

export const setNotify: Processor<'setNotify'> = async (data, ctx) => {
  const { origin } = data;
  const userId = origin.userId;
  if (!data.on) {
    const before = await ctx.store.notifications.get(ctx.teamId, userId);
    await ctx.store.notifications.set(ctx.teamId, userId, { on: false, tz: before?.tz ?? 'UTC' });
    if (data.home) await publishHomeOf(ctx, { teamId: ctx.teamId, userId, ...data.home });
    else await tell(ctx, origin, success('Notifications off: I will not DM you about your posts.'));
    return;
  }
  const tz = (await slackTimeZone(ctx, userId)) ?? 'UTC';
  const match = await memberOf(ctx, userId);
  await ctx.store.notifications.set(ctx.teamId, userId, {
    on: true,
    tz,
    ...(match.ok ? { memberId: match.member.id } : {}),
  });
  const whose = match.ok
    ? `posts you create from Slack and posts ${memberName(match.member)} writes in the service`
    : 'posts you create from Slack (your Slack email matches no member of the service, so only those)';
  if (data.home) {
    await publishHomeOf(ctx, { teamId: ctx.teamId, userId, ...data.home });
    return;
  }
  await tell(
    ctx,
    origin,
    success(
      `Notifications on: I will DM you when ${whose} are commented on or resolved, in channels this workspace follows. Quiet hours 22:00–08:00 (${tz}): what happens then comes as one summary at 08:00.`,
    ),
  );
};
