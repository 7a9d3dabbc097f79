/**
 * A small run of the polling simulation (bench/lib/simulation.ts, `npm run bench:simulate` at
 * scale): 60 workspaces × 5 followed channels and 2 active threads against the emulator's rate
 * limit, through the poll schedule, the budget and the client, on a fake clock. The polls ask
 * for several times what the budget gives; the invariants hold: never over the limit in any
 * window, every workspace's interval stretched alike, people's operations not kept waiting.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate } from '../../bench/lib/simulation.ts';
import { connectRedis, deleteKeys, type Redis, whenReady } from '../../src/store/redis.ts';
import { REDIS_URL } from '../support/harness.ts';

let redis: Redis;
const prefix = `test-sim-${randomBytes(6).toString('hex')}`;

beforeAll(async () => {
  redis = connectRedis(REDIS_URL, 'producer');
  await whenReady(redis);
});

afterAll(async () => {
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
});

describe('polling simulation', () => {
  it('never over the limit, fair to every workspace, people first', { timeout: 90_000 }, async () => {
    const result = await simulate({
      redis,
      prefix,
      workspaces: 60,
      feeds: 5,
      threads: 2,
      feedEveryMs: 60_000,
      threadEveryMs: 15_000,
      limit: 100,
      windowMs: 30_000,
      personReserve: 20,
      durationMs: 24 * 60_000,
      measureFromMs: 7 * 60_000,
      personPerSecond: 0.2,
      joinOverMs: 0,
    });
    // The polls ask for 390 a window; about 74 are left to them.
    expect(result.stretch).toBeGreaterThan(4.5);
    expect(result.maxPerSlidingWindow).toBeLessThanOrEqual(100);
    expect(result.refused429).toBe(0);
    // The lane was used, not left idle: most windows carried close to it.
    expect(result.requests).toBeGreaterThan(0.8 * 74 * 48);
    expect(result.feedInterval.workspaces).toBe(60);
    expect(result.feedInterval.ratio).toBeLessThanOrEqual(1.2);
    expect(result.threadInterval.ratio).toBeLessThanOrEqual(1.2);
    expect(result.feedInterval.mean).toBeGreaterThan(4.5 * 60_000);
    expect(result.person.count).toBeGreaterThan(250);
    expect(result.person.p99).toBeLessThanOrEqual(1000);
  });
});
