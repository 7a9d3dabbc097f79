/** The app's Redis-backed state, assembled. */
import { auditStore } from './audit.ts';
import { cacheStore } from './cache.ts';
import { cardStore } from './cards.ts';
import { connectionStore } from './connections.ts';
import type { Cipher } from './crypto.ts';
import { digestStore } from './digests.ts';
import { feedStore } from './feeds.ts';
import { installationStore } from './installations.ts';
import type { KeySpace } from './keys.ts';
import { linkStore } from './links.ts';
import { mirrorStore } from './mirrors.ts';
import { notificationStore } from './notifications.ts';
import { pageStore } from './pages.ts';
import { recentStore } from './recent.ts';
import type { Redis } from './redis.ts';
import { slackChannelStore } from './slackChannels.ts';
import { teamStore } from './teams.ts';
import { threadStore } from './threads.ts';
import type { TokenRotation } from './tokenRotation.ts';
import { urlStore } from './urls.ts';
import { workflowWaitStore } from './workflowWaits.ts';

/**
 * `cipher` (multi-workspace mode) adds the sealed stores: installations and connections;
 * `rotation` refreshes rotating bot tokens as installations are read.
 */
export function createStore(
  redis: Redis,
  space: KeySpace,
  options: { cipher?: Cipher; rotation?: TokenRotation | undefined } = {},
) {
  const { cipher } = options;
  return {
    redis,
    space,
    links: linkStore(redis, space),
    cards: cardStore(redis, space),
    urls: urlStore(redis, space),
    threads: threadStore(redis, space),
    cache: cacheStore(redis, space),
    pages: pageStore(redis, space),
    audit: auditStore(redis, space),
    digests: digestStore(redis, space),
    recent: recentStore(redis, space),
    feeds: feedStore(redis, space),
    mirrors: mirrorStore(redis, space),
    teams: teamStore(redis, space),
    slackChannels: slackChannelStore(redis, space),
    workflowWaits: workflowWaitStore(redis, space),
    notifications: notificationStore(redis, space),
    installations: cipher
      ? installationStore(redis, space, cipher, { rotation: options.rotation })
      : undefined,
    connections: cipher ? connectionStore(redis, space, cipher) : undefined,
  };
}
export type Store = ReturnType<typeof createStore>;
