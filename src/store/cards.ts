/**
 * What the bot remembers about Slack messages and posts, so shortcuts and buttons can find them:
 * which Slack message shows which post, which cards show a post (to update them in place),
 * and which Slack reply became which comment.
 */
import { type KeySpace, keys } from './keys.ts';
import type { Redis } from './redis.ts';

/** Cards and bridged replies are remembered for 90 days. */
const TTL_SECONDS = 90 * 24 * 3600;

export interface SlackMessageRef {
  slackChannel: string;
  ts: string;
}

export interface BridgedReply {
  postId: string;
  commentId: string;
}

export function cardStore(redis: Redis, space: KeySpace) {
  return {
    /** Remembers that a Slack message shows a post (a card the bot posted). */
    async rememberCard(teamId: string, postId: string, card: SlackMessageRef): Promise<void> {
      const k = keys(space, teamId);
      await redis
        .multi()
        .set(k.messagePost(card.slackChannel, card.ts), postId, 'EX', TTL_SECONDS)
        .sadd(k.postCards(postId), `${card.slackChannel}|${card.ts}`)
        .expire(k.postCards(postId), TTL_SECONDS)
        .exec();
    },
    async postOfMessage(teamId: string, message: SlackMessageRef): Promise<string | undefined> {
      const id = await redis.get(keys(space, teamId).messagePost(message.slackChannel, message.ts));
      return id ?? undefined;
    },
    async cardsOfPost(teamId: string, postId: string): Promise<SlackMessageRef[]> {
      const members = await redis.smembers(keys(space, teamId).postCards(postId));
      return members
        .map((m) => {
          const [slackChannel, ts] = m.split('|');
          return slackChannel && ts ? { slackChannel, ts } : undefined;
        })
        .filter((m): m is SlackMessageRef => m !== undefined)
        .sort((a, b) => a.ts.localeCompare(b.ts));
    },
    async forgetCard(teamId: string, postId: string, card: SlackMessageRef): Promise<void> {
      const k = keys(space, teamId);
      await redis
        .multi()
        .del(k.messagePost(card.slackChannel, card.ts))
        .srem(k.postCards(postId), `${card.slackChannel}|${card.ts}`)
        .exec();
    },
    async rememberReply(teamId: string, reply: SlackMessageRef, bridged: BridgedReply): Promise<void> {
      await redis.set(
        keys(space, teamId).replyComment(reply.slackChannel, reply.ts),
        JSON.stringify(bridged),
        'EX',
        TTL_SECONDS,
      );
    },
    async commentOfReply(teamId: string, reply: SlackMessageRef): Promise<BridgedReply | undefined> {
      const raw = await redis.get(keys(space, teamId).replyComment(reply.slackChannel, reply.ts));
      if (raw === null) return undefined;
      const parsed = JSON.parse(raw) as Partial<BridgedReply>;
      return typeof parsed.postId === 'string' && typeof parsed.commentId === 'string'
        ? { postId: parsed.postId, commentId: parsed.commentId }
        : undefined;
    },
  };
}
export type CardStore = ReturnType<typeof cardStore>;
