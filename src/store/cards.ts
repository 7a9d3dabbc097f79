/**
 * What the bot remembers about Slack messages and posts, so shortcuts and buttons can find them:
 * which Slack message shows which post, which cards and unfurls show a post (to update them in
 * place), and which Slack reply became which comment.
 */
import type { Result } from 'ioredis';
import type { PostState } from './feeds.ts';
import { type JobFence, pendingArgs } from './fence.ts';
import { type KeySpace, keys } from './keys.ts';
import { storeScript } from './lua.ts';
import type { Redis } from './redis.ts';

/** Cards and bridged replies are remembered for 90 days. */
const TTL_SECONDS = 90 * 24 * 3600;

export interface SlackMessageRef {
  slackChannel: string;
  ts: string;
}

/** A Slack message on which the bot unfurled `url`, a link to a post. */
export interface UnfurlRef extends SlackMessageRef {
  url: string;
}

/** Where a post is shown in Slack: the bot's cards, and the unfurls of links to it. */
export interface PostShown {
  cards: SlackMessageRef[];
  unfurls: UnfurlRef[];
}

export interface BridgedReply {
  postId: string;
  commentId: string;
}

/** Sets the post's shown state, answers its cards and unfurls (lua/postShowing.lua). */
const SHOWING_SCRIPT = storeScript('postShowing');
/** The same with a job's fenced step-log write between (lua/postShowingMarked.lua). */
const SHOWING_MARKED_SCRIPT = storeScript('postShowingMarked');
/** The same, and the outcome kept pending until it is told (lua/postShowingPending.lua). */
const SHOWING_PENDING_SCRIPT = storeScript('postShowingPending');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    postShowing(
      cards: string,
      state: string,
      unfurls: string,
      json: string,
      ttlSeconds: number,
    ): Result<[string[], string[]], Context>;
    postShowingMarked(
      cards: string,
      state: string,
      unfurls: string,
      job: string,
      lock: string,
      json: string,
      ttlSeconds: number,
      token: string,
      lockMs: string,
      progress: string,
      field: string,
    ): Result<[string[], string[]] | 0, Context>;
    postShowingPending(
      cards: string,
      state: string,
      unfurls: string,
      job: string,
      lock: string,
      index: string,
      messages: string,
      json: string,
      ttlSeconds: number,
      token: string,
      lockMs: string,
      progress: string,
      field: string,
      jobId: string,
      at: string,
      telling: string,
      ...confirmed: string[]
    ): Result<[string[], string[]] | 0, Context>;
  }
}

function withShowing(redis: Redis): Redis {
  if (typeof (redis as Partial<Redis>).postShowing !== 'function') {
    redis.defineCommand('postShowing', { numberOfKeys: 3, lua: SHOWING_SCRIPT });
    redis.defineCommand('postShowingMarked', { numberOfKeys: 5, lua: SHOWING_MARKED_SCRIPT });
    redis.defineCommand('postShowingPending', { numberOfKeys: 7, lua: SHOWING_PENDING_SCRIPT });
  }
  return redis;
}

/** `channel|ts|url` members of a post's unfurl set (the url may hold `|`), oldest message first. */
function parseUnfurls(members: string[]): UnfurlRef[] {
  return members
    .map((m) => {
      const [slackChannel, ts, ...rest] = m.split('|');
      const url = rest.join('|');
      return slackChannel && ts && url ? { slackChannel, ts, url } : undefined;
    })
    .filter((m): m is UnfurlRef => m !== undefined)
    .sort((a, b) => a.ts.localeCompare(b.ts));
}

const unfurlMember = (ref: UnfurlRef) => `${ref.slackChannel}|${ref.ts}|${ref.url}`;

function shownOf([cards, unfurls]: [string[], string[]]): PostShown {
  return { cards: parseCards(cards), unfurls: parseUnfurls(unfurls) };
}

/** `channel|ts` members of a post's card set, oldest card first. */
function parseCards(members: string[]): SlackMessageRef[] {
  return members
    .map((m) => {
      const [slackChannel, ts] = m.split('|');
      return slackChannel && ts ? { slackChannel, ts } : undefined;
    })
    .filter((m): m is SlackMessageRef => m !== undefined)
    .sort((a, b) => a.ts.localeCompare(b.ts));
}

export function cardStore(redis: Redis, space: KeySpace) {
  const scripted = withShowing(redis);
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
      return parseCards(await redis.smembers(keys(space, teamId).postCards(postId)));
    },
    /**
     * The cards and unfurls of a post that is about to show `state`, which is remembered as what
     * its cards show (the feed's yardstick, feeds.ts `postState`; it lives as long as cards do).
     * All three keys are the team's: one slot on a cluster.
     */
    async showing(teamId: string, postId: string, state: PostState): Promise<PostShown> {
      const k = keys(space, teamId);
      return shownOf(
        await scripted.postShowing(
          k.postCards(postId),
          k.postState(postId),
          k.postUnfurls(postId),
          JSON.stringify(state),
          TTL_SECONDS,
        ),
      );
    },
    /**
     * `showing`, and in the same script a job's fenced step-log write (fence.ts): one round trip
     * where two were — and with `fence.pending`, the outcome kept until it is told. Answers
     * undefined, having written nothing, when the job's lock is no longer the run's. Only where the
     * job's keys and the team's share one Redis (no cluster). `on`: the connection to send it on
     * (the job's worker's, so that it leaves in one write with the job's completion); default the
     * store's.
     */
    async showingMarked(
      teamId: string,
      postId: string,
      state: PostState,
      fence: JobFence,
      on?: Redis,
    ): Promise<PostShown | undefined> {
      const k = keys(space, teamId);
      const shown = [k.postCards(postId), k.postState(postId), k.postUnfurls(postId)] as const;
      const answer = fence.pending
        ? await withShowing(on ?? redis).postShowingPending(
            ...shown,
            fence.job,
            fence.lock,
            fence.pending.index,
            fence.pending.messages,
            JSON.stringify(state),
            TTL_SECONDS,
            fence.token,
            fence.lockMs,
            fence.progress,
            fence.field,
            ...pendingArgs(fence.pending),
          )
        : await withShowing(on ?? redis).postShowingMarked(
            ...shown,
            fence.job,
            fence.lock,
            JSON.stringify(state),
            TTL_SECONDS,
            fence.token,
            fence.lockMs,
            fence.progress,
            fence.field,
          );
      return answer === 0 ? undefined : shownOf(answer);
    },
    /** Remembers that the bot unfurled a link to a post on a Slack message (to update it in place). */
    async rememberUnfurl(teamId: string, postId: string, ref: UnfurlRef): Promise<void> {
      const k = keys(space, teamId);
      await redis
        .multi()
        .sadd(k.postUnfurls(postId), unfurlMember(ref))
        .expire(k.postUnfurls(postId), TTL_SECONDS)
        .exec();
    },
    async forgetUnfurl(teamId: string, postId: string, ref: UnfurlRef): Promise<void> {
      await redis.srem(keys(space, teamId).postUnfurls(postId), unfurlMember(ref));
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
