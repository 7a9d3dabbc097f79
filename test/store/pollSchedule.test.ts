/**
 * The poll schedule on the real Redis: pollers are taken in due order as the background lane of
 * the host's budget allows; when they ask for more than it gives, every poller's interval
 * stretches by the same factor (fair across workspaces), and no window carries more polls than
 * the lane; changing a poller's interval is one step. Time is a fake clock.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBudget } from '../../src/store/budget.ts';
import { createPollSchedule, HEADROOM } from '../../src/store/pollSchedule.ts';
import { connectRedis, deleteKeys, type Redis, whenReady } from '../../src/store/redis.ts';
import { REDIS_URL } from '../support/harness.ts';

const HOST = 'collab.example.test';
const WINDOW = 30_000;
let redis: Redis;
let prefix: string;

beforeAll(async () => {
  redis = connectRedis(REDIS_URL, 'producer');
  await whenReady(redis);
});

afterAll(async () => {
  await deleteKeys(redis, 'test-polls-*');
  redis.disconnect();
});

function fresh() {
  prefix = `test-polls-${randomBytes(6).toString('hex')}`;
  return createPollSchedule(redis, { prefix }, { capacity: 10, windowMs: WINDOW });
}

const poll = (teamId: string, slackChannel: string, everyMs: number) => ({
  operation: 'pollFeed',
  data: { teamId, slackChannel },
  everyMs,
});

describe('poll schedule', () => {
  it('stretches every poller evenly when the polls ask for more than the background lane gives', async () => {
    const schedule = fresh();
    let now = 0;
    const budget = createBudget(
      redis,
      { prefix },
      { limit: 10, windowMs: WINDOW, personReserve: 0, pauseMs: 5000, maxWaitMs: 0 },
      { now: () => now },
    );
    // 40 pollers of 8 workspaces, each every window: 40 polls asked for a window, 10 allowed.
    for (let p = 0; p < 40; p++)
      await schedule.set(HOST, `T${p % 8}-feed-C${p}`, poll(`T${p % 8}`, `C${p}`, WINDOW), 0);
    const polled = new Map<string, number[]>();
    const perWindow = new Map<number, number>();
    let stretch = 0;
    for (now = 0; now < 40 * WINDOW; now += 1000) {
      const taken = await schedule.dispatch(HOST, now, 100);
      stretch = taken.stretch;
      for (const due of taken.polls) {
        // Each poll sends one request in the background lane.
        await budget.take(HOST, 'listPosts', { lane: 'background', maxWaitMs: 0 });
        polled.set(due.id, [...(polled.get(due.id) ?? []), now]);
        const w = Math.floor(now / WINDOW);
        perWindow.set(w, (perWindow.get(w) ?? 0) + 1);
      }
    }
    expect(stretch).toBeCloseTo(4 / HEADROOM, 1);
    expect((await budget.status(HOST)).stretch).toBeCloseTo(stretch, 2);
    // Never more polls in a window than the lane gives.
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(10);
    // Fair: after the first turns, every poller's interval is the stretched one, within 20 %.
    const intervals = [...polled.values()].map((times) => {
      const late = times.filter((t) => t >= 8 * WINDOW);
      return (late.at(-1)! - late[0]!) / (late.length - 1);
    });
    expect(intervals).toHaveLength(40);
    expect(Math.max(...intervals) / Math.min(...intervals)).toBeLessThanOrEqual(1.2);
    expect(Math.min(...intervals)).toBeGreaterThanOrEqual(3.5 * WINDOW);
  });

  it('changes an interval in one step: a shorter one is due sooner, a longer one from its next turn', async () => {
    const schedule = fresh();
    const id = 'T1-thread-th_1';
    await schedule.set(HOST, id, poll('T1', 'C1', 300_000), 1000);
    expect(await schedule.get(id)).toMatchObject({ everyMs: 300_000, next: 1000 });
    expect((await schedule.dispatch(HOST, 1000, 10)).polls.map((p) => p.id)).toEqual([id]);
    expect((await schedule.get(id))?.next).toBe(301_000);
    // Active: due 15 s from now instead of in five minutes.
    await schedule.set(HOST, id, poll('T1', 'C1', 15_000), 2000);
    expect(await schedule.get(id)).toMatchObject({ everyMs: 15_000, next: 17_000 });
    // Idle again: the turn already given stays; the next one is five minutes after it.
    await schedule.set(HOST, id, poll('T1', 'C1', 300_000), 3000);
    expect(await schedule.get(id)).toMatchObject({ everyMs: 300_000, next: 17_000 });
    expect((await schedule.dispatch(HOST, 17_000, 10)).polls).toHaveLength(1);
    expect((await schedule.get(id))?.next).toBe(317_000);
  });

  it("lists a workspace's pollers by prefix, removes them, and moves a poller with its workspace's host", async () => {
    const schedule = fresh();
    await schedule.set(HOST, 'T1-feed-C1', poll('T1', 'C1', 60_000), 0);
    await schedule.set(HOST, 'T1-feed-C2', poll('T1', 'C2', 60_000), 0);
    await schedule.set(HOST, 'T12-feed-C1', poll('T12', 'C1', 60_000), 0);
    expect((await schedule.list('T1-feed-')).map((p) => p.id)).toEqual(['T1-feed-C1', 'T1-feed-C2']);
    expect(await schedule.remove('T1-feed-C2')).toBe(true);
    expect(await schedule.remove('T1-feed-C2')).toBe(false);
    await schedule.set('other.example.test', 'T1-feed-C1', poll('T1', 'C1', 60_000), 0);
    expect(await schedule.get('T1-feed-C1')).toMatchObject({ host: 'other.example.test' });
    expect((await schedule.dispatch(HOST, 0, 10)).polls.map((p) => p.id)).toEqual(['T12-feed-C1']);
    expect((await schedule.dispatch('other.example.test', 0, 10)).polls.map((p) => p.id)).toEqual([
      'T1-feed-C1',
    ]);
  });
});
