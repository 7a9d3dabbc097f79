/** Schedules a digest of the Slack channel (`/collab digest add`). */
import { hasFilters } from '../../collab/postFilters.ts';
import { tell, UserError } from '../../engine/index.ts';
import { isTimeZone, patternProblem } from '../../operations/schedule.ts';
import { slackDate } from '../../render/digest.ts';
import { filtersText } from '../../render/filters.ts';
import { md } from '../../render/limits.ts';
import { success } from '../../render/messages.ts';
import { commandOf, type Processor } from '../context.ts';
import { digestSchedulerId } from '../digestSchedules.ts';
import { slackTimeZone } from '../people.ts';

/** Digests one Slack channel may have. */
export const MAX_DIGESTS_PER_CHANNEL = 10;

export const addDigest: Processor<'addDigest'> = async (data, ctx) => {
  const { origin } = data;
  const asked = data.tz;
  if (asked !== undefined && !isTimeZone(asked)) {
    throw new UserError(
      `\`${asked}\` is not a time zone I know. Use an IANA name such as \`Europe/Paris\` or \`America/New_York\`.`,
    );
  }
  const fromSlack = asked === undefined ? await slackTimeZone(ctx, origin.userId) : undefined;
  const tz = asked ?? fromSlack ?? 'UTC';
  const problem = patternProblem(data.pattern, tz);
  if (problem) throw new UserError(problem);

  const digest = await ctx.once('create', async () => {
    const existing = await ctx.store.digests.list(ctx.teamId, origin.slackChannel);
    if (existing.length >= MAX_DIGESTS_PER_CHANNEL) {
      const command = commandOf(ctx);
      throw new UserError(
        `This channel already has ${existing.length} digests, the most one channel can have: remove one first (\`${command} digest list\` shows their ids, \`${command} digest remove <id>\` removes one).`,
      );
    }
    return ctx.store.digests.create(ctx.teamId, {
      slackChannel: origin.slackChannel,
      pattern: data.pattern,
      label: data.label,
      tz,
      createdBy: origin.userId,
      createdAt: new Date().toISOString(),
      ...(hasFilters(data.filters) ? { filters: data.filters } : {}),
    });
  });
  await ctx.schedules.upsert(
    digestSchedulerId(ctx.teamId, digest.id),
    { pattern: digest.pattern, tz },
    'sendDigest',
    {
      teamId: ctx.teamId,
      digestId: digest.id,
    },
  );
  const next = (await ctx.schedules.get(digestSchedulerId(ctx.teamId, digest.id)))?.next;
  const link = await ctx.store.links.get(ctx.teamId, origin.slackChannel);
  const tzNote = asked
    ? ''
    : fromSlack
      ? ' (your Slack time zone)'
      : ' (Slack did not tell me your time zone)';
  const covers = link ? `#${link.channelName}` : 'all channels (this Slack channel is not linked)';
  const which = filtersText(digest.filters);
  const message = success(
    `Digest ${digest.id} scheduled ${digest.label}, ${tz}${tzNote}. It covers ${covers}${which ? `: ${which}` : ''}.`,
  );
  if (next) message.blocks.push({ type: 'context', elements: [md(`Next digest: ${slackDate(next)}`)] });
  await tell(ctx, origin, message);
};
