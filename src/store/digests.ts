/**
 * Digests: what each Slack channel asked for (schedule, time zone), the end of the window the
 * last digest covered, the posts each digest re-reads by id, and the claims of scheduled slots (SET NX: a slot is posted at most once,
 * however many workers, re-deliveries or duplicate ticks). The BullMQ scheduler that runs a
 * digest lives in the queue, under `schedulerId(teamId, 'digest', id)`.
 */

import { z } from 'zod';
import { PostFilters } from '../collab/postFilters.ts';
import { type KeySpace, keys } from './keys.ts';
import { storeScript } from './lua.ts';
import type { Redis } from './redis.ts';

/** A slot claim outlives any re-delivery, retry or restart by far. */
export const SLOT_CLAIM_TTL_SECONDS = 45 * 24 * 3600;

export const Digest = z.object({
  id: z.string(),
  slackChannel: z.string(),
  /** 5-field cron pattern, evaluated in `tz` */
  pattern: z.string(),
  /** the schedule in words, as confirmed to the person */
  label: z.string(),
  tz: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** which posts the digest covers (absent: every one), as a feed's */
  filters: PostFilters.optional(),
});
export type Digest = z.infer<typeof Digest>;

export type SlotClaim = 'claimed' | 'ours' | 'taken';

/**
 * A post a digest re-reads by id (a resolution or a reopening moves no list order): when it was
 * last read (epoch ms, the bot's clock) and the resolution the digests last knew (null: open).
 */
export const DigestWatched = z.object({
  checkedAt: z.number(),
  resolvedAt: z.string().nullable(),
});
export type DigestWatched = z.infer<typeof DigestWatched>;

/** Posts one digest watches at most; past it, the least recently read are dropped. */
export const DIGEST_WATCH_MAX = 200;
/** A digest's watch list outlives many missed runs, not an abandoned digest. */
const WATCH_TTL_SECONDS = 90 * 24 * 3600;

/** Moves the value forward only: a late or repeated run never moves the window back (lua/digestLastMax.lua). */
const MAX_SCRIPT = storeScript('digestLastMax');

export function digestStore(redis: Redis, space: KeySpace) {
  const read = (raw: string | null): Digest | undefined => {
    if (raw === null) return undefined;
    try {
      const parsed = Digest.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  };

  /** The posts a digest re-reads, by post id. */
  const watched = async (teamId: string, digestId: string): Promise<Map<string, DigestWatched>> => {
    const raw = await redis.hgetall(keys(space, teamId).digestWatch(digestId));
    const out = new Map<string, DigestWatched>();
    for (const [postId, value] of Object.entries(raw)) {
      try {
        const parsed = DigestWatched.safeParse(JSON.parse(value));
        if (parsed.success) out.set(postId, parsed.data);
      } catch {
        // an unreadable entry is dropped at the next trim
      }
    }
    return out;
  };

  return {
    /** Saves a new digest under a short id (`d1`, `d2`, …). */
    async create(teamId: string, input: Omit<Digest, 'id'>): Promise<Digest> {
      const k = keys(space, teamId);
      const n = await redis.incr(k.digestSeq());
      const digest: Digest = { id: `d${n}`, ...input };
      await redis
        .multi()
        .set(k.digest(digest.id), JSON.stringify(digest))
        .sadd(k.digests(), digest.id)
        .exec();
      return digest;
    },
    async get(teamId: string, digestId: string): Promise<Digest | undefined> {
      return read(await redis.get(keys(space, teamId).digest(digestId)));
    },
    /** The team's digests (of one Slack channel when given), by id. */
    async list(teamId: string, slackChannel?: string): Promise<Digest[]> {
      const k = keys(space, teamId);
      const ids = await redis.smembers(k.digests());
      if (ids.length === 0) return [];
      const raws = await redis.mget(...ids.map((id) => k.digest(id)));
      return raws
        .map(read)
        .filter(
          (d): d is Digest =>
            d !== undefined && (slackChannel === undefined || d.slackChannel === slackChannel),
        )
        .sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)) || a.id.localeCompare(b.id));
    },
    async remove(teamId: string, digestId: string): Promise<Digest | undefined> {
      const k = keys(space, teamId);
      const found = read(await redis.get(k.digest(digestId)));
      await redis
        .multi()
        .del(k.digest(digestId), k.digestLast(digestId), k.digestWatch(digestId))
        .srem(k.digests(), digestId)
        .exec();
      return found;
    },
    /** The end of the window the last digest covered, epoch ms. */
    async lastUntil(teamId: string, digestId: string): Promise<number | undefined> {
      const raw = await redis.get(keys(space, teamId).digestLast(digestId));
      const ms = raw === null ? Number.NaN : Number(raw);
      return Number.isFinite(ms) && ms > 0 ? ms : undefined;
    },
    async setLastUntil(teamId: string, digestId: string, ms: number): Promise<void> {
      await redis.eval(MAX_SCRIPT, 1, keys(space, teamId).digestLast(digestId), String(Math.floor(ms)));
    },
    /** The posts a digest re-reads, by post id. */
    watched,
    /**
     * Records what a digest learnt (`set`) and forgets posts (`drop`), then keeps the
     * {@link DIGEST_WATCH_MAX} most recently read.
     */
    async watch(
      teamId: string,
      digestId: string,
      set: ReadonlyMap<string, DigestWatched>,
      drop: Iterable<string> = [],
    ): Promise<void> {
      const key = keys(space, teamId).digestWatch(digestId);
      const dropped = [...drop];
      const tx = redis.multi();
      if (set.size > 0) {
        tx.hset(key, Object.fromEntries([...set].map(([id, entry]) => [id, JSON.stringify(entry)])));
      }
      if (dropped.length > 0) tx.hdel(key, ...dropped);
      await tx.expire(key, WATCH_TTL_SECONDS).exec();
      const count = await redis.hlen(key);
      if (count <= DIGEST_WATCH_MAX) return;
      const all = await watched(teamId, digestId);
      const raw = await redis.hkeys(key);
      // Unreadable entries first, then the least recently read.
      const excess = [
        ...raw.filter((id) => !all.has(id)),
        ...[...all].sort(([, a], [, b]) => a.checkedAt - b.checkedAt).map(([id]) => id),
      ].slice(0, count - DIGEST_WATCH_MAX);
      if (excess.length > 0) await redis.hdel(key, ...excess);
    },
    /**
     * Claims a slot for `owner` (the job id): `claimed` the first time, `ours` when the same job
     * runs again (a retry, a stalled job picked up elsewhere), `taken` for anyone else.
     */
    async claimSlot(teamId: string, digestId: string, slot: number, owner: string): Promise<SlotClaim> {
      const key = keys(space, teamId).digestSlot(digestId, slot);
      const set = await redis.set(key, owner, 'EX', SLOT_CLAIM_TTL_SECONDS, 'NX');
      if (set === 'OK') return 'claimed';
      return (await redis.get(key)) === owner ? 'ours' : 'taken';
    },
  };
}
export type DigestStore = ReturnType<typeof digestStore>;
