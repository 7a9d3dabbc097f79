/**
 * Personal notifications: who asked to hear about their own posts (`/collab notify on`), in which
 * time zone (for quiet hours) and as which member of the service (matched by the email of their
 * Slack profile); who created which post from Slack; and what is held during quiet hours.
 */
import { z } from 'zod';
import { type KeySpace, keys } from './keys.ts';
import type { Redis } from './redis.ts';

/** A creator is remembered as long as cards are (90 days). */
const CREATOR_TTL_SECONDS = 90 * 24 * 3600;
/** Held notifications of one person, at most. */
const HELD_MAX = 200;

export const NotifySettings = z.object({
  on: z.boolean(),
  /** IANA time zone of the person's Slack profile when they turned it on */
  tz: z.string(),
  /** the person's member in the service, when their Slack email matched one */
  memberId: z.string().optional(),
});
export type NotifySettings = z.infer<typeof NotifySettings>;

export const HeldNotice = z.object({
  postId: z.string(),
  title: z.string(),
  url: z.string().optional(),
  what: z.string(),
  at: z.number(),
});
export type HeldNotice = z.infer<typeof HeldNotice>;

function parse<T>(schema: z.ZodType<T>, raw: string | null | undefined): T | undefined {
  if (raw === null || raw === undefined) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function notificationStore(redis: Redis, space: KeySpace) {
  const k = (teamId: string) => keys(space, teamId);
  return {
    async get(teamId: string, userId: string): Promise<NotifySettings | undefined> {
      return parse(NotifySettings, await redis.hget(k(teamId).notifySettings(), userId));
    },
    async set(teamId: string, userId: string, settings: NotifySettings): Promise<void> {
      await redis.hset(k(teamId).notifySettings(), userId, JSON.stringify(settings));
    },
    /** Everyone with notifications on. */
    async listening(teamId: string): Promise<Array<{ userId: string; settings: NotifySettings }>> {
      const all = await redis.hgetall(k(teamId).notifySettings());
      return Object.entries(all)
        .map(([userId, raw]) => ({ userId, settings: parse(NotifySettings, raw) }))
        .filter((e): e is { userId: string; settings: NotifySettings } => e.settings?.on === true);
    },
    async rememberCreator(teamId: string, postId: string, userId: string): Promise<void> {
      await redis.set(k(teamId).postCreator(postId), userId, 'EX', CREATOR_TTL_SECONDS);
    },
    async creatorOf(teamId: string, postId: string): Promise<string | undefined> {
      return (await redis.get(k(teamId).postCreator(postId))) ?? undefined;
    },
    async hold(teamId: string, userId: string, notice: HeldNotice): Promise<void> {
      const key = k(teamId).notifyHeld(userId);
      await redis.multi().rpush(key, JSON.stringify(notice)).ltrim(key, -HELD_MAX, -1).exec();
    },
    /** Takes every held notice of a person (they are gone from the store once read). */
    async takeHeld(teamId: string, userId: string): Promise<HeldNotice[]> {
      const key = k(teamId).notifyHeld(userId);
      const [[, raws] = [null, []]] = (await redis.multi().lrange(key, 0, -1).del(key).exec()) ?? [];
      return (raws as string[])
        .map((r) => parse(HeldNotice, r))
        .filter((n): n is HeldNotice => n !== undefined);
    },
    async heldCount(teamId: string, userId: string): Promise<number> {
      return redis.llen(k(teamId).notifyHeld(userId));
    },
  };
}
export type NotificationStore = ReturnType<typeof notificationStore>;
