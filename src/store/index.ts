/** The app's Redis-backed state, assembled. */
import { cacheStore } from './cache.ts';
import { cardStore } from './cards.ts';
import type { KeySpace } from './keys.ts';
import { linkStore } from './links.ts';
import { pageStore } from './pages.ts';
import type { Redis } from './redis.ts';
import { threadStore } from './threads.ts';
import { urlStore } from './urls.ts';

export function createStore(redis: Redis, space: KeySpace) {
  return {
    redis,
    links: linkStore(redis, space),
    cards: cardStore(redis, space),
    urls: urlStore(redis, space),
    threads: threadStore(redis, space),
    cache: cacheStore(redis, space),
    pages: pageStore(redis, space),
  };
}
export type Store = ReturnType<typeof createStore>;
