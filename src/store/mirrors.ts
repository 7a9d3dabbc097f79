/**
 * Thread mirroring: for each thread the bot made for a DM, how far its messages were read
 * (watermark), when it was last active and how often it is polled; which of its messages were
 * mirrored into Slack (claimed before posting, so a restart never posts one twice) and where;
 * which messages the bot wrote itself (never mirrored back); and the way back, from a Slack
 * message or thread to the thread and message it answers.
 */
import { z } from 'zod';
import { type Claim, Watermark } from './feeds.ts';
import { type KeySpace, keys } from './keys.ts';
import type { Redis } from './redis.ts';

/** Mappings of Slack messages and sent message ids live 90 days, like cards. */
const TTL_SECONDS = 90 * 24 * 3600;

export type PollInterval = 'active' | 'idle';

export interface MirrorState {
  watermark: Watermark;
  /** epoch ms (our clock) of the last activity seen: a message sent or mirrored */
  lastActivity: number;
  interval: PollInterval;
}

export interface MirroredMessage {
  threadId: string;
  messageId: string;
}

const MirroredMessage = z.object({ threadId: z.string(), messageId: z.string() });

export function mirrorStore(redis: Redis, space: KeySpace) {
  const k = (teamId: string) => keys(space, teamId);
  return {
    async get(teamId: string, threadId: string): Promise<MirrorState | undefined> {
      const raw = await redis.hgetall(k(teamId).mirror(threadId));
      if (raw.watermark === undefined) return undefined;
      let watermark: Watermark;
      try {
        const parsed = Watermark.safeParse(JSON.parse(raw.watermark));
        if (!parsed.success) return undefined;
        watermark = parsed.data;
      } catch {
        return undefined;
      }
      return {
        watermark,
        lastActivity: Number(raw.lastActivity ?? 0) || 0,
        interval: raw.interval === 'active' ? 'active' : 'idle',
      };
    },
    /** Sets the watermark only when the thread has none yet; answers whether it did. */
    async startAt(teamId: string, threadId: string, watermark: Watermark): Promise<boolean> {
      return (await redis.hsetnx(k(teamId).mirror(threadId), 'watermark', JSON.stringify(watermark))) === 1;
    },
    async setWatermark(teamId: string, threadId: string, watermark: Watermark): Promise<void> {
      await redis.hset(k(teamId).mirror(threadId), 'watermark', JSON.stringify(watermark));
    },
    async touch(teamId: string, threadId: string, at: number): Promise<void> {
      await redis.hset(k(teamId).mirror(threadId), 'lastActivity', String(at));
    },
    async setInterval(teamId: string, threadId: string, interval: PollInterval): Promise<void> {
      await redis.hset(k(teamId).mirror(threadId), 'interval', interval);
    },
    /** Remembers a message the bot wrote in the thread, so it is never mirrored back. */
    async rememberSent(teamId: string, threadId: string, messageId: string): Promise<void> {
      const key = k(teamId).sentMessages(threadId);
      await redis.multi().sadd(key, messageId).expire(key, TTL_SECONDS).exec();
    },
    async isSent(teamId: string, threadId: string, messageId: string): Promise<boolean> {
      return (await redis.sismember(k(teamId).sentMessages(threadId), messageId)) === 1;
    },
    /** Claims mirroring a message for `owner` (a job): the first claim wins for good. */
    async claimMessage(teamId: string, threadId: string, messageId: string, owner: string): Promise<Claim> {
      const key = k(teamId).mirrored(threadId);
      const [[, set] = [null, 0]] =
        (await redis.multi().hsetnx(key, messageId, `claim:${owner}`).expire(key, TTL_SECONDS).exec()) ?? [];
      if (set === 1) return 'mine';
      return (await redis.hget(key, messageId)) === `claim:${owner}` ? 'mine' : 'taken';
    },
    /** Records a mirrored message: where it went in Slack, and the way back from there. */
    async mirroredAs(
      teamId: string,
      message: MirroredMessage,
      slack: { slackChannel: string; ts: string },
    ): Promise<void> {
      await redis
        .multi()
        .hset(k(teamId).mirrored(message.threadId), message.messageId, `${slack.slackChannel}|${slack.ts}`)
        .set(
          k(teamId).mirrorMessage(slack.slackChannel, slack.ts),
          JSON.stringify(message),
          'EX',
          TTL_SECONDS,
        )
        .exec();
    },
    /** Records a message that could not be mirrored (it is not tried again). */
    async notMirrored(teamId: string, threadId: string, messageId: string, why: string): Promise<void> {
      await redis.hset(k(teamId).mirrored(threadId), messageId, `failed:${why}`);
    },
    /** The thread message a Slack message (a mirrored one) shows. */
    async messageOf(
      teamId: string,
      slack: { slackChannel: string; ts: string },
    ): Promise<MirroredMessage | undefined> {
      const raw = await redis.get(k(teamId).mirrorMessage(slack.slackChannel, slack.ts));
      if (raw === null) return undefined;
      try {
        const parsed = MirroredMessage.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
    /** Remembers that the Slack thread a DM was sent from talks to `threadId`. */
    async rememberConversation(
      teamId: string,
      slack: { slackChannel: string; threadTs: string },
      threadId: string,
    ): Promise<void> {
      await redis.set(
        k(teamId).conversationThread(slack.slackChannel, slack.threadTs),
        threadId,
        'EX',
        TTL_SECONDS,
      );
    },
    async threadOfConversation(
      teamId: string,
      slack: { slackChannel: string; threadTs: string },
    ): Promise<string | undefined> {
      return (await redis.get(k(teamId).conversationThread(slack.slackChannel, slack.threadTs))) ?? undefined;
    },
  };
}
export type MirrorStore = ReturnType<typeof mirrorStore>;
