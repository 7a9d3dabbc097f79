/**
 * Scheduled digests of a Slack channel: add / list / remove / run now (a person's commands), and
 * `sendDigest`, the scheduler's tick. A digest covers the Slack channel's linked collaboration
 * channel, or all channels when it is not linked.
 *
 * At most once per slot: the slot is derived from the tick BullMQ scheduled (cron.ts), rounded to
 * the schedule, and claimed with SET NX under the job's id before anything is posted. Another job
 * for the same slot (a duplicate tick, a re-delivery, a second worker) finds the claim taken and
 * posts nothing; the same job running again (a retry, a stall) keeps its claim, and its step log
 * never posts twice.
 */

import { hasFilters, type PostFilters, passesFilters } from '../../collab/postFilters.ts';
import type { Post } from '../../collab/schemas.ts';
import {
  type DigestScope,
  digestListMessage,
  digestMessage,
  quietDigestMessage,
  slackDate,
} from '../../render/digest.ts';
import { filtersText } from '../../render/filters.ts';
import { md } from '../../render/limits.ts';
import { success } from '../../render/messages.ts';
import type { Digest } from '../../store/digests.ts';
import type { ChannelLink } from '../../store/links.ts';
import type { PauseReason } from '../../store/slackChannels.ts';
import { changeSlackChannel, observedAt, pauseReasonOf } from '../channelPause.ts';
import { commandOf, type Processor, type ProcessorContext } from '../context.ts';
import { isTimeZone, patternProblem, previousRun, slotOf, tickOf } from '../cron.ts';
import { slackErrorCode, tell } from '../delivery.ts';
import { collectDigest, isQuiet, withRechecked } from '../digest.ts';
import { digestSchedulerId } from '../digestSchedules.ts';
import { digestWatch } from '../digestWatch.ts';
import { UserError } from '../errors.ts';
import { slackTimeZone } from '../people.ts';

export const PAUSED_DIGEST =
  'I could not post the digest here: I am not in this channel. Invite me (`/invite @Collab`); this channel’s digests and feed resume when I am back.';

/** Digests one Slack channel may have. */
export const MAX_DIGESTS_PER_CHANNEL = 10;
/** A digest run by hand with no earlier digest covers this much. */
const FIRST_RUN_WINDOW_MS = 24 * 3600_000;

function scopeOf(link: ChannelLink | undefined, digest?: Digest): DigestScope {
  return {
    channelName: link?.channelName,
    schedule: digest ? `${digest.label} (${digest.tz})` : undefined,
  };
}

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
      throw new UserError(`This channel already has ${existing.length} digests; remove one first.`);
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

/**
 * Walks the window, re-reads the posts the digests `watchers` watch (digestWatch.ts), and posts the
 * digest (or the quiet note, or nothing). Answers what it did.
 */
async function postDigest(
  ctx: ProcessorContext,
  slackChannel: string,
  window: { since: number; until: number },
  scope: DigestScope,
  link: ChannelLink | undefined,
  options: { quietNote: boolean; filters?: PostFilters | undefined; watchers: readonly string[] },
): Promise<'posted' | 'quiet' | 'skipped' | 'paused'> {
  const all = ctx.collab.allPosts(
    {
      sort: 'last_activity_at',
      direction: 'desc',
      limit: 50,
      ...(link ? { channelId: link.channelId } : {}),
    },
    { ...(ctx.signal ? { signal: ctx.signal } : {}) },
  );
  const posts = hasFilters(options.filters) ? filtered(all, options.filters, window.since) : all;
  const watch = await digestWatch(ctx, options.watchers, window, options.filters);
  const walked = await collectDigest(watch.observe(posts), window);
  // After the walk: a post commented meanwhile is then read past the window, never counted twice.
  const rechecked = await watch.recheck();
  const summary = withRechecked(walked, rechecked);
  const quiet = isQuiet(summary);
  ctx.logger.info(
    {
      scanned: summary.scanned,
      resolvedUnseen: rechecked.resolved.length,
      reopened: rechecked.reopened.length,
      quiet,
    },
    'digest collected',
  );
  if (quiet && !options.quietNote) {
    await watch.save();
    return 'skipped';
  }
  const message = quiet ? quietDigestMessage(summary, scope) : digestMessage(summary, scope);
  // At most once: a post that started and never recorded its end is taken as posted.
  const sent = await ctx.once<{ posted: true } | { paused: PauseReason }>(
    'post',
    async () => {
      const send = () =>
        ctx.slack.chat.postMessage({
          channel: slackChannel,
          text: message.text,
          blocks: message.blocks,
          unfurl_links: false,
          unfurl_media: false,
        });
      try {
        try {
          await send();
        } catch (error) {
          if (slackErrorCode(error) !== 'not_in_channel') throw error;
          await ctx.slack.conversations.join({ channel: slackChannel });
          await send();
        }
      } catch (error) {
        // The channel cannot take posts (archived, deleted, the bot removed): pause, not fail.
        const paused = pauseReasonOf(slackErrorCode(error));
        if (paused) return { paused };
        throw error;
      }
      return { posted: true };
    },
    async () => ({ posted: true }),
  );
  if ('paused' in sent) {
    await changeSlackChannel(ctx, slackChannel, { paused: true, reason: sent.paused, at: observedAt() });
    return 'paused';
  }
  await watch.save();
  return quiet ? 'quiet' : 'posted';
}

/**
 * The posts that pass the filters, and the first one older than the window whatever it is: it
 * ends the walk (posts come newest activity first), so filtering never reads more pages.
 */
async function* filtered(posts: AsyncIterable<Post>, filters: PostFilters, since: number) {
  for await (const post of posts) {
    const at = Date.parse(post.last_activity_at ?? post.created_at ?? '');
    if (passesFilters(post, filters) || (Number.isFinite(at) && at <= since)) yield post;
  }
}

export const sendDigest: Processor<'sendDigest'> = async (data, ctx) => {
  const { digestId } = data;
  const log = ctx.logger.child({ digestId });
  const digest = await ctx.store.digests.get(ctx.teamId, digestId);
  if (!digest) {
    // The digest was removed but its scheduler survived (a crash between the two): finish the job.
    await ctx.schedules.remove(digestSchedulerId(ctx.teamId, digestId));
    log.info('digest is gone; scheduler removed');
    return;
  }
  if (await ctx.store.slackChannels.isPaused(ctx.teamId, digest.slackChannel)) {
    // A tick queued before its channel was paused: the window stays open for after the resume.
    log.info('slack channel paused; nothing posted');
    return;
  }
  const tick = data.slot ?? tickOf(ctx.job);
  if (tick === undefined) {
    log.warn('a sendDigest job without a scheduled tick or slot; nothing posted');
    return;
  }
  const slot = slotOf(digest.pattern, digest.tz, tick);
  // The owner is this job record (id and creation time): a retry or a stalled re-run of it keeps
  // the claim; any other job for the slot — even one BullMQ re-created under the same id — does not.
  const owner = `${ctx.job.id ?? 'job'}@${ctx.job.timestamp}`;
  const claim = await ctx.store.digests.claimSlot(ctx.teamId, digest.id, slot, owner);
  if (claim === 'taken') {
    log.info({ slot }, 'slot already claimed; nothing posted');
    return;
  }
  const since =
    (await ctx.store.digests.lastUntil(ctx.teamId, digest.id)) ??
    previousRun(digest.pattern, digest.tz, slot);
  const link = await ctx.store.links.get(ctx.teamId, digest.slackChannel);
  const outcome =
    since >= slot
      ? 'skipped'
      : await postDigest(ctx, digest.slackChannel, { since, until: slot }, scopeOf(link, digest), link, {
          quietNote: ctx.features?.digestQuietNote === true,
          filters: digest.filters,
          watchers: [digest.id],
        });
  // Paused: the window stays open, and the first digest after the resume covers it.
  if (outcome !== 'paused') await ctx.store.digests.setLastUntil(ctx.teamId, digest.id, slot);
  log.info({ slot, since, outcome }, 'digest slot done');
};

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
