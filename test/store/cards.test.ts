/** The card store on real Redis (and on a cluster): a post's cards and unfurls, and the state they are about to show, in one command. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardStore } from '../../src/store/cards.ts';
import { feedStore } from '../../src/store/feeds.ts';
import { keys } from '../../src/store/keys.ts';
import { deleteKeys, type Redis, whenReady } from '../../src/store/redis.ts';
import { connectTestRedis, testSpace } from '../support/redisTarget.ts';

let redis: Redis;
const space = testSpace(`test-${randomBytes(6).toString('hex')}`);
beforeAll(async () => {
  redis = connectTestRedis('worker');
  await whenReady(redis, 10_000);
});
afterAll(async () => {
  await deleteKeys(redis, `${space.prefix}:*`);
  redis.disconnect();
});

describe('cardStore.showing', () => {
  const state = { resolved: true, resolvedAt: '2026-11-23T09:00:00Z', comments: 3, lastActivityAt: null };

  it('answers the cards, oldest first, and remembers the state a feed compares with', async () => {
    const cards = cardStore(redis, space);
    await cards.rememberCard('T1', 'pst_1', { slackChannel: 'C2', ts: '1700000002.000100' });
    await cards.rememberCard('T1', 'pst_1', { slackChannel: 'C1', ts: '1700000001.000100' });
    expect((await cards.showing('T1', 'pst_1', state)).cards).toEqual([
      { slackChannel: 'C1', ts: '1700000001.000100' },
      { slackChannel: 'C2', ts: '1700000002.000100' },
    ]);
    expect(await feedStore(redis, space).postState('T1', 'pst_1')).toEqual(state);
    expect(await redis.ttl(keys(space, 'T1').postState('pst_1'))).toBeGreaterThan(80 * 24 * 3600);
  });

  it('remembers the state of a post with no cards, and answers none', async () => {
    const cards = cardStore(redis, space);
    expect(await cards.showing('T2', 'pst_9', { ...state, resolved: false })).toEqual({
      cards: [],
      unfurls: [],
    });
    expect((await feedStore(redis, space).postState('T2', 'pst_9'))?.resolved).toBe(false);
  });

  it('answers the unfurls of links to the post (a url may hold |), until one is forgotten', async () => {
    const cards = cardStore(redis, space);
    const odd = { slackChannel: 'C1', ts: '1700000003.000100', url: 'https://x.test/posts/pst_3?a=1|2' };
    const plain = { slackChannel: 'C2', ts: '1700000001.000100', url: 'https://x.test/posts/pst_3' };
    await cards.rememberUnfurl('T3', 'pst_3', odd);
    await cards.rememberUnfurl('T3', 'pst_3', plain);
    await cards.rememberUnfurl('T3', 'pst_3', plain);
    expect(await cards.showing('T3', 'pst_3', state)).toEqual({ cards: [], unfurls: [plain, odd] });
    expect(await redis.ttl(keys(space, 'T3').postUnfurls('pst_3'))).toBeGreaterThan(80 * 24 * 3600);
    await cards.forgetUnfurl('T3', 'pst_3', odd);
    expect((await cards.showing('T3', 'pst_3', state)).unfurls).toEqual([plain]);
  });
});
