/** The card store on real Redis (and on a cluster): a post's cards and unfurls, and the state they are about to show, in one command. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardStore } from '../../src/store/cards.ts';
import { feedStore } from '../../src/store/feeds.ts';
import { keys } from '../../src/store/keys.ts';
import { deleteKeys, type Redis, whenReady } from '../../src/store/redis.ts';
import { connectTestRedis, ON_CLUSTER, testSpace } from '../support/redisTarget.ts';

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

  it('writes nothing when it fails (a card set of the wrong type)', async () => {
    const cards = cardStore(redis, space);
    await redis.set(keys(space, 'T8').postCards('pst_8'), 'not a set');
    await expect(cards.showing('T8', 'pst_8', state)).rejects.toThrow(/WRONGTYPE/);
    expect(await feedStore(redis, space).postState('T8', 'pst_8')).toBeUndefined();
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

// The worker makes this call only on one Redis (the job's keys and the team's in one script).
describe.skipIf(ON_CLUSTER)('cardStore.showingMarked', () => {
  const state = { resolved: true, resolvedAt: '2026-11-23T09:00:00Z', comments: 1, lastActivityAt: null };
  const progress = JSON.stringify({ steps: { tell: { started: true } } });
  const jobOf = (id: string) => {
    const job = `${space.prefix}:q:${id}`;
    return { job, lock: `${job}:lock`, token: 'run-1', lockMs: '30000', progress, field: 'progress' };
  };

  it("writes the job's step log and the state, extends the lock, and answers the cards, in one script", async () => {
    const cards = cardStore(redis, space);
    await cards.rememberCard('T5', 'pst_5', { slackChannel: 'C5', ts: '1700000005.000100' });
    const fence = jobOf('1');
    await redis.set(fence.lock, 'run-1', 'PX', 1000);
    expect(await cards.showingMarked('T5', 'pst_5', state, fence)).toEqual({
      cards: [{ slackChannel: 'C5', ts: '1700000005.000100' }],
      unfurls: [],
    });
    expect(await redis.hget(fence.job, 'progress')).toBe(progress);
    expect(await redis.pttl(fence.lock)).toBeGreaterThan(20_000);
    expect(await feedStore(redis, space).postState('T5', 'pst_5')).toEqual(state);
  });

  it("writes nothing when the lock is another run's", async () => {
    const cards = cardStore(redis, space);
    const fence = jobOf('2');
    await redis.set(fence.lock, 'run-2', 'PX', 30_000);
    expect(await cards.showingMarked('T6', 'pst_6', state, fence)).toBeUndefined();
    expect(await redis.hget(fence.job, 'progress')).toBeNull();
    expect(await feedStore(redis, space).postState('T6', 'pst_6')).toBeUndefined();
  });

  it('writes nothing when it fails (a card set of the wrong type): all or nothing', async () => {
    const cards = cardStore(redis, space);
    const fence = jobOf('3');
    await redis.set(fence.lock, 'run-1', 'PX', 30_000);
    await redis.set(keys(space, 'T7').postCards('pst_7'), 'not a set');
    await expect(cards.showingMarked('T7', 'pst_7', state, fence)).rejects.toThrow(/WRONGTYPE/);
    expect(await redis.hget(fence.job, 'progress')).toBeNull();
    expect(await feedStore(redis, space).postState('T7', 'pst_7')).toBeUndefined();
  });
});
