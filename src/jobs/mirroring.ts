/**
 * Thread mirroring: a thread the bot made for a DM remembers the Slack conversation it came from;
 * messages people write in it are posted back there, attributed, in order, once each. A job
 * scheduler polls each such thread: every THREAD_POLL_ACTIVE_MS while the conversation had
 * activity in the last THREAD_ACTIVE_WINDOW_MS, every THREAD_POLL_IDLE_MS otherwise.
 *
 * Never mirrored back: messages by the app (what the bot writes comes back with the app author)
 * and messages whose id the bot remembered when it sent them.
 */

import type { Message } from '../collab/schemas.ts';
import { mirroredMessage } from '../render/mirror.ts';
import {
  isSlackBusy,
  isUnreachable,
  joinsFirst,
  SlackBusyError,
  slackErrorCode,
} from '../slackapi/errors.ts';
import type { PollInterval } from '../store/mirrors.ts';
import type { ThreadOrigin } from '../store/threads.ts';
import type { ProcessorContext } from './context.ts';
import { MAX_POLL_PAGES, THREAD_ACTIVE_WINDOW_MS, THREAD_PAGE_SIZE } from './polling.ts';
import { isNotFound } from './resolveRefs.ts';
import { schedulerId } from './schedules.ts';
import { advance, EMPTY_WATERMARK, newerThanPaged, type Stamped, type Watermark } from './watermark.ts';

export function threadSchedulerId(teamId: string, threadId: string): string {
  return schedulerId(teamId, 'thread', threadId);
}

const stamp = (message: Message): Stamped => ({ id: message.id, at: message.created_at });

/**
 * sendDm's hook: the bot wrote `sent` in `threadId`. Remembers it (never mirrored back), starts
 * mirroring a thread that has a Slack origin (from this message on: nothing older is mirrored),
 * and marks the conversation active (polled every THREAD_POLL_ACTIVE_MS).
 */
export async function noteDmActivity(ctx: ProcessorContext, threadId: string, sent: Message): Promise<void> {
  const { teamId } = ctx;
  await ctx.store.mirrors.rememberSent(teamId, threadId, sent.id);
  const origin = await ctx.store.threads.origin(teamId, threadId);
  if (!origin) return;
  if (origin.threadTs) {
    await ctx.store.mirrors.rememberConversation(
      teamId,
      { slackChannel: origin.slackChannel, threadTs: origin.threadTs },
      threadId,
    );
  }
  await ctx.store.mirrors.startAt(teamId, threadId, advance(EMPTY_WATERMARK, [stamp(sent)]));
  await ctx.store.mirrors.touch(teamId, threadId, Date.now());
  await schedule(ctx, threadId, 'active', true);
}

/** Upserts the thread's scheduler with the interval, when it changes (or `force`). */
async function schedule(ctx: ProcessorContext, threadId: string, interval: PollInterval, force: boolean) {
  const state = await ctx.store.mirrors.get(ctx.teamId, threadId);
  const id = threadSchedulerId(ctx.teamId, threadId);
  const everyMs = interval === 'active' ? ctx.polling.threadActiveMs : ctx.polling.threadIdleMs;
  const current = force ? await ctx.schedules.get(id) : undefined;
  const unchanged = state?.interval === interval && (!force || current?.every === everyMs);
  if (unchanged) return;
  await ctx.schedules.upsert(id, { everyMs }, 'pollThread', { teamId: ctx.teamId, threadId });
  await ctx.store.mirrors.setInterval(ctx.teamId, threadId, interval);
}

/** Messages after the watermark, newest first: one request unless a burst needs more pages. */
async function freshMessages(ctx: ProcessorContext, threadId: string, mark: Watermark): Promise<Message[]> {
  const read = (after: string | undefined) =>
    ctx.collab.listMessages(threadId, {
      sort: 'created_at',
      direction: 'desc',
      limit: THREAD_PAGE_SIZE,
      ...(after ? { after } : {}),
    });
  const { fresh, complete } = await newerThanPaged(read, mark, stamp, MAX_POLL_PAGES);
  if (!complete) {
    ctx.logger.warn(
      { threadId, messages: fresh.length },
      'thread burst larger than one poll reads; older skipped',
    );
  }
  return fresh;
}

/** One poll of one mirrored thread. */
export async function pollThreadOnce(ctx: ProcessorContext, threadId: string): Promise<void> {
  const { teamId } = ctx;
  const origin = await ctx.store.threads.origin(teamId, threadId);
  if (!origin) {
    // Not a thread the bot made for a DM (or forgotten): nowhere to mirror to.
    await ctx.schedules.remove(threadSchedulerId(teamId, threadId));
    return;
  }
  try {
    await pollFrom(ctx, threadId, origin);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    // Gone from the service: nothing more can come from it, and a DM to the same people makes a
    // new thread instead of failing on this one.
    ctx.logger.info({ threadId }, 'mirrored thread gone from the service: mirroring stopped');
    await ctx.store.threads.forget(teamId, threadId, origin.memberIds);
    await ctx.schedules.remove(threadSchedulerId(teamId, threadId));
  }
}

async function pollFrom(ctx: ProcessorContext, threadId: string, origin: ThreadOrigin): Promise<void> {
  const { teamId } = ctx;
  const state = await ctx.store.mirrors.get(teamId, threadId);
  const mark = state?.watermark;
  if (!mark) {
    // Never started (mirroring came after the thread): start from now, mirroring nothing old.
    const first = await ctx.collab.listMessages(threadId, {
      sort: 'created_at',
      direction: 'desc',
      limit: THREAD_PAGE_SIZE,
    });
    await ctx.store.mirrors.startAt(teamId, threadId, advance(EMPTY_WATERMARK, first.data.map(stamp)));
    await schedule(ctx, threadId, 'idle', false);
    return;
  }

  const fresh = await freshMessages(ctx, threadId, mark);
  let mirroredAny = false;
  // Oldest first: the conversation reads in Slack in the order it was written.
  for (const message of [...fresh].reverse()) {
    if (message.author?.type === 'app') continue;
    if (await ctx.store.mirrors.isSent(teamId, threadId, message.id)) continue;
    if (await mirror(ctx, threadId, origin, message)) mirroredAny = true;
  }
  if (fresh.length > 0)
    await ctx.store.mirrors.setWatermark(teamId, threadId, advance(mark, fresh.map(stamp)));

  const now = Date.now();
  if (mirroredAny) await ctx.store.mirrors.touch(teamId, threadId, now);
  // Read again: a message sent from Slack meanwhile makes the conversation active too.
  const lastActivity = (await ctx.store.mirrors.get(teamId, threadId))?.lastActivity ?? 0;
  await schedule(ctx, threadId, now - lastActivity < THREAD_ACTIVE_WINDOW_MS ? 'active' : 'idle', false);
}

/**
 * Posts one message into the Slack conversation, once ever: a claim in Redis (first poll wins,
 * across workers and restarts), the post, then where it went (the way back for replies). A run
 * that stopped between posting and recording does not post again: a missing message is better
 * than a duplicate. Answers whether this run mirrored it.
 */
async function mirror(
  ctx: ProcessorContext,
  threadId: string,
  origin: ThreadOrigin,
  message: Message,
): Promise<boolean> {
  const { teamId } = ctx;
  const owner = String(ctx.job.id);
  if ((await ctx.store.mirrors.claimMessage(teamId, threadId, message.id, owner)) === 'taken') return false;
  type Placed = { slackChannel: string; ts: string } | { error: string };
  const placed = await ctx.once<Placed>(
    `mirror:${threadId}:${message.id}:${ctx.job.attemptsMade}`,
    () => postMirrored(ctx, origin, message),
    async () => ({ error: 'uncertain' }),
  );
  if ('error' in placed) {
    ctx.logger.warn({ err: placed.error, threadId, messageId: message.id }, 'message not mirrored');
    await ctx.store.mirrors.notMirrored(teamId, threadId, message.id, placed.error);
    return false;
  }
  await ctx.store.mirrors.mirroredAs(teamId, { threadId, messageId: message.id }, placed);
  return true;
}

/** In the origin conversation (its thread when it had one); unreachable there, to the person who sent the DM. */
async function postMirrored(
  ctx: ProcessorContext,
  origin: ThreadOrigin,
  message: Message,
): Promise<{ slackChannel: string; ts: string } | { error: string }> {
  const rendered = mirroredMessage(message);
  const send = async (channel: string, threadTs: string | undefined) => {
    const res = await ctx.slack.chat.postMessage({
      channel,
      text: rendered.text,
      blocks: rendered.blocks,
      unfurl_links: false,
      unfurl_media: false,
      ...(threadTs ? { thread_ts: threadTs } : {}),
    });
    return { slackChannel: res.channel ?? channel, ts: res.ts ?? '' };
  };
  const attempt = async (channel: string, threadTs: string | undefined) => {
    try {
      return await send(channel, threadTs);
    } catch (error) {
      const code = slackErrorCode(error);
      if (isSlackBusy(code)) throw new SlackBusyError(`message not mirrored: ${code}`);
      return { error: code };
    }
  };
  let result = await attempt(origin.slackChannel, origin.threadTs);
  if ('error' in result && joinsFirst(result.error)) {
    const joined = await ctx.slack.conversations.join({ channel: origin.slackChannel }).then(
      () => true,
      () => false,
    );
    if (joined) result = await attempt(origin.slackChannel, origin.threadTs);
  }
  // The origin conversation cannot take the message: the person gets it in a DM.
  if ('error' in result && isUnreachable(result.error)) {
    ctx.logger.info({ err: result.error }, 'origin conversation unreachable; mirroring to the sender');
    result = await attempt(origin.createdBy, undefined);
  }
  return result;
}
