/**
 * Channel feeds: which Slack channels follow their linked collaboration channel, how far each
 * feed has read (its watermark), which posts each has carded (so a post is never carded twice,
 * whatever restarts), and the state each post's cards last showed (so a change is announced once,
 * and a change the bot made itself is not announced at all).
 */
import { z } from 'zod';
import { PostFilters } from '../collab/postFilters.ts';
import { type KeySpace, keys } from './keys.ts';
import type { Redis } from './redis.ts';

/** Records about posts (carded, last shown state, announcements) live 90 days, like cards. */
const TTL_SECONDS = 90 * 24 * 3600;

/** The newest instant a poll has seen, and the ids seen at exactly that instant. */
export const Watermark = z.object({
  /** null: nothing seen yet (everything is new) */
  at: z.string().nullable(),
  ids: z.array(z.string()),
});
export type Watermark = z.infer<typeof Watermark>;

export const FeedState = z.object({
  /** the collaboration channel followed (the link's, when the feed started) */
  channelId: z.string(),
  followedBy: z.string(),
  followedAt: z.string(),
  /** absent until the first poll: that poll only takes the watermark, posting nothing old */
  watermark: Watermark.optional(),
  /** the newest activity when the feed started: posts created before it are old, never carded */
  since: z.string().nullable().optional(),
  /** which new posts get a card (absent: every one); changing them keeps the watermark */
  filters: PostFilters.optional(),
});
export type FeedState = z.infer<typeof FeedState>;

/** What a post's cards show that can change: the basis of change notes. */
export const PostState = z.object({
  resolved: z.boolean(),
  resolvedAt: z.string().nullable(),
  comments: z.number().nullable(),
  lastActivityAt: z.string().nullable(),
});
export type PostState = z.infer<typeof PostState>;

/**
 * A carded post a feed re-reads by id: when it was last read (epoch ms, the bot's clock) and since
 * when the feed has seen it resolved (null: open).
 */
export const Watched = z.object({
  checkedAt: z.number(),
  resolvedSince: z.number().nullable(),
});
export type Watched = z.infer<typeof Watched>;

/** A claim: `mine` when this owner holds it (now or from an earlier run), `taken` otherwise. */
export type Claim = 'mine' | 'taken';

function parse<T>(schema: z.ZodType<T>, raw: string | null): T | undefined {
  if (raw === null) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function feedStore(redis: Redis, space: KeySpace) {
  const k = (teamId: string) => keys(space, teamId);
  return {
    async get(teamId: string, slackChannel: string): Promise<FeedState | undefined> {
      return parse(FeedState, await redis.get(k(teamId).feed(slackChannel)));
    },
    /** Starts (or restarts) a feed: a new record, and no memory of posts carded before. */
    async start(teamId: string, slackChannel: string, state: FeedState): Promise<void> {
      await redis
        .multi()
        .set(k(teamId).feed(slackChannel), JSON.stringify(state))
        .del(k(teamId).feedCarded(slackChannel))
        .del(k(teamId).feedWatch(slackChannel))
        .exec();
    },
    /** Saves a poll's progress, only while the feed exists (an unfollow meanwhile wins). */
    async save(teamId: string, slackChannel: string, state: FeedState): Promise<void> {
      await redis.set(k(teamId).feed(slackChannel), JSON.stringify(state), 'XX');
    },
    /** Forgets the feed; answers whether there was one. */
    async remove(teamId: string, slackChannel: string): Promise<boolean> {
      const [[, removed] = [null, 0]] =
        (await redis
          .multi()
          .del(k(teamId).feed(slackChannel))
          .del(k(teamId).feedCarded(slackChannel))
          .del(k(teamId).feedWatch(slackChannel))
          .exec()) ?? [];
      return removed === 1;
    },
    /**
     * Claims carding `postId` in `slackChannel` for `owner` (a job): the first claim wins for
     * good, so two polls (two workers, a restart) never card the same post twice.
     */
    async claimCard(teamId: string, slackChannel: string, postId: string, owner: string): Promise<Claim> {
      const key = k(teamId).feedCarded(slackChannel);
      const [[, set] = [null, 0]] =
        (await redis.multi().hsetnx(key, postId, `claim:${owner}`).expire(key, TTL_SECONDS).exec()) ?? [];
      if (set === 1) return 'mine';
      return (await redis.hget(key, postId)) === `claim:${owner}` ? 'mine' : 'taken';
    },
    /** Gives up a claim that posted nothing (the Slack channel is paused): a later poll may card the post. */
    async releaseCard(teamId: string, slackChannel: string, postId: string): Promise<void> {
      await redis.hdel(k(teamId).feedCarded(slackChannel), postId);
    },
    /** Records how the claim ended: the card's ts, or why there is none. */
    async cardDone(teamId: string, slackChannel: string, postId: string, outcome: string): Promise<void> {
      await redis.hset(k(teamId).feedCarded(slackChannel), postId, outcome);
    },
    /** The carded posts a feed re-reads, by post id. */
    async watched(teamId: string, slackChannel: string): Promise<Map<string, Watched>> {
      const raw = await redis.hgetall(k(teamId).feedWatch(slackChannel));
      const out = new Map<string, Watched>();
      for (const [postId, value] of Object.entries(raw)) {
        const entry = parse(Watched, value);
        if (entry) out.set(postId, entry);
      }
      return out;
    },
    async watch(teamId: string, slackChannel: string, postId: string, entry: Watched): Promise<void> {
      const key = k(teamId).feedWatch(slackChannel);
      await redis.multi().hset(key, postId, JSON.stringify(entry)).expire(key, TTL_SECONDS).exec();
    },
    async unwatch(teamId: string, slackChannel: string, postId: string): Promise<void> {
      await redis.hdel(k(teamId).feedWatch(slackChannel), postId);
    },
    async postState(teamId: string, postId: string): Promise<PostState | undefined> {
      return parse(PostState, await redis.get(k(teamId).postState(postId)));
    },
    async setPostState(teamId: string, postId: string, state: PostState): Promise<void> {
      await redis.set(k(teamId).postState(postId), JSON.stringify(state), 'EX', TTL_SECONDS);
    },
    /** Claims announcing one state (`version`) of a post: one announcement per change. */
    async claimAnnouncement(teamId: string, postId: string, version: string, owner: string): Promise<Claim> {
      const key = k(teamId).postAnnounced(postId, version);
      if ((await redis.set(key, owner, 'EX', TTL_SECONDS, 'NX')) === 'OK') return 'mine';
      return (await redis.get(key)) === owner ? 'mine' : 'taken';
    },
  };
}
export type FeedStore = ReturnType<typeof feedStore>;
