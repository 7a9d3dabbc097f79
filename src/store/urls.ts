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

export function urlStore(redis: Redis, space: KeySpace) {
  return {
    async remember(teamId: string, url: string | null | undefined, postId: string): Promise<void> {
      if (!url) return;
      await redis.set(keys(space, teamId).url(hash(url)), postId, 'EX', TTL_SECONDS);
    },
    async postOfUrl(teamId: string, url: string): Promise<string | undefined> {
      return (await redis.get(keys(space, teamId).url(hash(url)))) ?? undefined;
    },
  };
}
export type UrlStore = ReturnType<typeof urlStore>;
