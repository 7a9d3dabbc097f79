/** The digest store on real Redis: short ids, slot claims (once per slot, kept by their own job), a window end that only moves forward. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestStore } from '../../src/store/digests.ts';
import { recentStore } from '../../src/store/recent.ts';
import { connectRedis, type Redis, whenReady } from '../../src/store/redis.ts';
import { REDIS_URL } from '../support/harness.ts';

let redis: Redis;
const space = { prefix: `test-${randomBytes(6).toString('hex')}` };
beforeAll(async () => {
  redis = connectRedis(REDIS_URL, 'worker');
  await whenReady(redis);
});
afterAll(async () => {
  const found = await redis.keys(`${space.prefix}:*`);
  if (found.length) await redis.del(...found);
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
    expect(await redis.ttl(`${space.prefix}:t:T1:digestslot:d1:1000`)).toBeGreaterThan(30 * 24 * 3600);
    await store.setLastUntil('T1', 'd1', 5000);
    await store.setLastUntil('T1', 'd1', 4000);
    expect(await store.lastUntil('T1', 'd1')).toBe(5000);
    expect((await store.remove('T1', 'd1'))?.id).toBe('d1');
    expect(await store.lastUntil('T1', 'd1')).toBeUndefined();
    expect((await store.list('T1')).map((d) => d.id)).toEqual(['d2']);
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
