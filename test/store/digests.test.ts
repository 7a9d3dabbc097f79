/** The digest store on real Redis: short ids, slot claims (once per slot, kept by their own job), a window end that only moves forward. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIGEST_WATCH_MAX, digestStore } from '../../src/store/digests.ts';
import { keys } from '../../src/store/keys.ts';
import { recentStore } from '../../src/store/recent.ts';
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

describe('digestStore', () => {
  it('creates, lists by channel, claims slots and moves the window forward only', async () => {
    const store = digestStore(redis, space);
    const base = {
      pattern: '0 9 * * *',
      label: 'every day at 09:00',
      tz: 'UTC',
      createdBy: 'U1',
      createdAt: 'now',
    };
    const a = await store.create('T1', { ...base, slackChannel: 'C1' });
    const b = await store.create('T1', { ...base, slackChannel: 'C2' });
    expect([a.id, b.id]).toEqual(['d1', 'd2']);
    expect((await store.list('T1', 'C2')).map((d) => d.id)).toEqual(['d2']);
    expect(await store.claimSlot('T1', 'd1', 1000, 'job-a')).toBe('claimed');
    expect(await store.claimSlot('T1', 'd1', 1000, 'job-a')).toBe('ours');
    expect(await store.claimSlot('T1', 'd1', 1000, 'job-b')).toBe('taken');
    expect(await store.claimSlot('T1', 'd1', 2000, 'job-b')).toBe('claimed');
    expect(await redis.ttl(keys(space, 'T1').digestSlot('d1', 1000))).toBeGreaterThan(30 * 24 * 3600);
    await store.setLastUntil('T1', 'd1', 5000);
    await store.setLastUntil('T1', 'd1', 4000);
    expect(await store.lastUntil('T1', 'd1')).toBe(5000);
    expect((await store.remove('T1', 'd1'))?.id).toBe('d1');
    expect(await store.lastUntil('T1', 'd1')).toBeUndefined();
    expect((await store.list('T1')).map((d) => d.id)).toEqual(['d2']);
  });

  it('keeps at most DIGEST_WATCH_MAX watched posts, the least recently read dropped first, and forgets them with the digest', async () => {
    const store = digestStore(redis, space);
    const first = new Map(
      Array.from({ length: DIGEST_WATCH_MAX }, (_, i) => [
        `p${i}`,
        { checkedAt: 1000 + i, resolvedAt: null },
      ]),
    );
    await store.watch('T2', 'd9', first);
    await store.watch(
      'T2',
      'd9',
      new Map([
        ['p0', { checkedAt: 9000, resolvedAt: '2026-08-01T00:00:00Z' }],
        ['n1', { checkedAt: 9001, resolvedAt: null }],
        ['n2', { checkedAt: 9002, resolvedAt: null }],
      ]),
      ['p5'],
    );
    const watched = await store.watched('T2', 'd9');
    expect(watched.size).toBe(DIGEST_WATCH_MAX);
    expect(watched.get('p0')).toEqual({ checkedAt: 9000, resolvedAt: '2026-08-01T00:00:00Z' });
    // p5 dropped, then p1 (the least recently read) to stay at the cap.
    expect(watched.has('p5')).toBe(false);
    expect(watched.has('p1')).toBe(false);
    expect(watched.has('p2')).toBe(true);
    expect(watched.has('n2')).toBe(true);
    await store.remove('T2', 'd9');
    expect((await store.watched('T2', 'd9')).size).toBe(0);
  });

  it('keeps a capped list of recent operations per person, newest first', async () => {
    const store = recentStore(redis, space);
    for (let i = 0; i < 25; i++)
      await store.record('T1', 'U1', { operation: `op${i}`, outcome: 'completed', at: 'x' });
    const list = await store.list('T1', 'U1', 100);
    expect(list).toHaveLength(20);
    expect(list[0]?.operation).toBe('op24');
  });
});
