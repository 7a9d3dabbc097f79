/**
 * Post urls the bot has seen in API responses, mapped to post ids. The spec does not show the
 * url format, so a url is only ever recognised because the service handed it to us.
 */
import { createHash } from 'node:crypto';
import { type KeySpace, keys } from './keys.ts';
import type { Redis } from './redis.ts';

const TTL_SECONDS = 180 * 24 * 3600;

/** Slack wraps urls in angle brackets and may add a label: `<https://x|label>`. */
export function normaliseUrl(raw: string): string {
  let url = raw.trim();
  if (url.startsWith('<') && url.endsWith('>')) url = url.slice(1, -1);
  const bar = url.indexOf('|');
  if (bar >= 0) url = url.slice(0, bar);
  return url.replace(/&amp;/g, '&').replace(/\/+$/, '');
}

const hash = (url: string) => createHash('sha256').update(normaliseUrl(url)).digest('hex').slice(0, 32);

/** A url remembered by this process is not written again for this long (its key lives 180 days). */
const REMEMBERED_MS = 60 * 60_000;
/** …for at most this many urls at once. */
const REMEMBERED_MAX = 10_000;

export function urlStore(redis: Redis, space: KeySpace, now: () => number = Date.now) {
  // Every change to a post from Slack remembers its url again; once an hour is enough.
  const remembered = new Map<string, { postId: string; at: number }>();
  return {
    async remember(teamId: string, url: string | null | undefined, postId: string): Promise<void> {
      if (!url) return;
      const memo = `${teamId}\n${url}`;
      const seen = remembered.get(memo);
      if (seen?.postId === postId && now() - seen.at < REMEMBERED_MS) return;
      await redis.set(keys(space, teamId).url(hash(url)), postId, 'EX', TTL_SECONDS);
      if (remembered.size >= REMEMBERED_MAX) remembered.clear();
      remembered.set(memo, { postId, at: now() });
    },
    async postOfUrl(teamId: string, url: string): Promise<string | undefined> {
      return (await redis.get(keys(space, teamId).url(hash(url)))) ?? undefined;
    },
  };
}
export type UrlStore = ReturnType<typeof urlStore>;
