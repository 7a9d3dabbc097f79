/** The card store on real Redis (and on a cluster): a post's cards, and the state they are about to show, in one command. */
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

describe('cardStore.cardsShowing', () => {
  const state = { resolved: true, resolvedAt: '2026-11-23T09:00:00Z', comments: 3, lastActivityAt: null };

  it('answers the cards, oldest first, and remembers the state a feed compares with', async () => {
    const cards = cardStore(redis, space);
    await cards.rememberCard('T1', 'pst_1', { slackChannel: 'C2', ts: '1700000002.000100' });
    await cards.rememberCard('T1', 'pst_1', { slackChannel: 'C1', ts: '1700000001.000100' });
    expect(await cards.cardsShowing('T1', 'pst_1', state)).toEqual([
      { slackChannel: 'C1', ts: '1700000001.000100' },
      { slackChannel: 'C2', ts: '1700000002.000100' },
    ]);
    expect(await feedStore(redis, space).postState('T1', 'pst_1')).toEqual(state);
    expect(await redis.ttl(keys(space, 'T1').postState('pst_1'))).toBeGreaterThan(80 * 24 * 3600);
  });

  it('remembers the state of a post with no cards, and answers none', async () => {
    const cards = cardStore(redis, space);
    expect(await cards.cardsShowing('T2', 'pst_9', { ...state, resolved: false })).toEqual([]);
    expect((await feedStore(redis, space).postState('T2', 'pst_9'))?.resolved).toBe(false);
  });
});
