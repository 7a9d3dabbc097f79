/**
 * The request budget per service host, on the real Redis and against the emulator: two budget
 * clients on their own connections (as two worker processes would be) share one budget and never
 * exceed it; a person's operation goes before background work; one workspace's backlog leaves
 * other workspaces their share; and a 429 pauses the host for every client. (Polls and their
 * stretch: test/store/pollSchedule.test.ts.)
 *
 * Time is a fake clock that only the budget's waits move forward, so nothing here depends on how
 * fast the machine is.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollabClient } from '../../src/collab/client.ts';
import { isCollabError } from '../../src/collab/errors.ts';
import { type Emulator, startEmulator } from '../../src/sandbox/emulator/index.ts';
import { type BudgetSettings, budgetKeys, createBudget, type HostBudget } from '../../src/store/budget.ts';
import { deleteKeys, type Redis, whenReady } from '../../src/store/redis.ts';
import { connectTestRedis, testSpace } from '../support/redisTarget.ts';

const HOST = 'collab.example.test';
const WINDOW = 30_000;
let prefix: string;
const connections: Redis[] = [];

/**
 * A clock shared by the budget clients of one test; only their waits move it, and only when every
 * turn in flight (`track`) waits: then the earliest wait ends. A turn whose answer is still on its
 * way from Redis holds the clock, so no client waits from a later time than it asked at, however
 * the answers interleave. (With a clock moved at each wait, the last of 60 turns of a budget of 10
 * per 30 s was taken 185 to 276 s in, by how the answers interleaved; the budget's pace gives
 * 150 s, and so does this clock, every time.) Outside `track`, a wait ends at once.
 */
function fakeClock(start = 1_000_000) {
  let now = start;
  let inFlight = 0;
  const waiting: { at: number; seq: number; wake: () => void }[] = [];
  let seq = 0;
  const next = () => {
    if (waiting.length === 0 || waiting.length < inFlight) return;
    waiting.sort((x, y) => x.at - y.at || x.seq - y.seq);
    const first = waiting.shift()!;
    now = Math.max(now, first.at);
    first.wake();
  };
  return {
    now: () => now,
    set: (at: number) => {
      now = Math.max(now, at);
    },
    delay: (ms: number) =>
      new Promise<void>((wake) => {
        waiting.push({ at: now + ms, seq: seq++, wake });
        next();
      }),
    /** Counts a turn in flight until it settles. */
    track: async <T>(turn: Promise<T>): Promise<T> => {
      inFlight += 1;
      try {
        return await turn;
      } finally {
        inFlight -= 1;
        next();
      }
    },
  };
}

async function client(
  settings: Partial<BudgetSettings>,
  clock: ReturnType<typeof fakeClock>,
  taken?: { lane: string; at: number }[],
): Promise<HostBudget> {
  const redis = connectTestRedis('producer');
  connections.push(redis);
  await whenReady(redis);
  return createBudget(
    redis,
    testSpace(prefix),
    { limit: 10, windowMs: WINDOW, personReserve: 0, pauseMs: 5000, maxWaitMs: 0, ...settings },
    {
      now: clock.now,
      delay: clock.delay,
      ...(taken ? { onTaken: (_host, lane, at) => taken.push({ lane, at }) } : {}),
    },
  );
}

/** Takes a turn; answers whether it was given without waiting past `maxWaitMs`. */
async function turn(
  budget: HostBudget,
  lane: 'person' | 'background',
  teamId?: string,
  maxWaitMs = 0,
): Promise<boolean> {
  try {
    await budget.take(HOST, 'listPosts', { lane, teamId, maxWaitMs });
    return true;
  } catch (error) {
    if (isCollabError(error) && error.kind === 'rateLimited') return false;
    throw error;
  }
}

beforeAll(() => {
  prefix = `test-budget-${randomBytes(6).toString('hex')}`;
});

afterAll(async () => {
  if (connections[0]) await deleteKeys(connections[0], `${prefix}:*`);
  for (const redis of connections) redis.disconnect();
});

describe('request budget per service host', () => {
  it('two clients on their own connections never send more than the limit in any window', async () => {
    prefix = `test-budget-${randomBytes(6).toString('hex')}`;
    const clock = fakeClock();
    const taken: { lane: string; at: number }[] = [];
    const settings = { limit: 10, maxWaitMs: 10 * WINDOW };
    const [a, b] = [await client(settings, clock, taken), await client(settings, clock, taken)];
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        clock.track(
          turn(i % 2 === 0 ? a : b, i % 3 === 0 ? 'person' : 'background', `T${i % 4}`, 10 * WINDOW),
        ),
      ),
    );
    expect(taken).toHaveLength(60);
    const times = taken.map((t) => t.at).sort((x, y) => x - y);
    // No window of WINDOW ms holds more than 10: the 11th turn after any turn is a window later.
    for (let i = 0; i + 10 < times.length; i++)
      expect(times[i + 10]! - times[i]!).toBeGreaterThanOrEqual(WINDOW);
  });

  it("keeps a share for people's operations, and background work waits while a person does", async () => {
    prefix = `test-budget-${randomBytes(6).toString('hex')}`;
    const clock = fakeClock();
    const [worker, web] = [
      await client({ personReserve: 3 }, clock),
      await client({ personReserve: 3 }, clock),
    ];
    const background = [];
    for (let i = 0; i < 9; i++) background.push(await turn(worker, 'background', 'T1'));
    // The background lane holds 10 - 3 turns.
    expect(background.filter(Boolean)).toHaveLength(7);
    // People still get the reserved turns, from another process.
    expect([
      await turn(web, 'person', 'T2'),
      await turn(web, 'person', 'T3'),
      await turn(web, 'person', 'T2'),
    ]).toEqual([true, true, true]);
    expect(await turn(web, 'person', 'T2')).toBe(false);
    // A person is waiting: a background turn freed later still goes to them first.
    clock.set(clock.now() + WINDOW + 1);
    expect(await turn(worker, 'background', 'T1')).toBe(false);
    expect(await turn(web, 'person', 'T2')).toBe(true);
  });

  it("one workspace's backlog leaves another workspace its share of people's turns", async () => {
    prefix = `test-budget-${randomBytes(6).toString('hex')}`;
    const clock = fakeClock();
    const budget = await client({ limit: 10 }, clock);
    const busy = [];
    for (let i = 0; i < 5; i++) busy.push(await turn(budget, 'person', 'T_BUSY'));
    expect(busy.every(Boolean)).toBe(true);
    // Another workspace arrives: the busy one has used its half, the newcomer goes on.
    expect(await turn(budget, 'person', 'T_QUIET')).toBe(true);
    expect(await turn(budget, 'person', 'T_BUSY')).toBe(false);
    for (let i = 0; i < 4; i++) expect(await turn(budget, 'person', 'T_QUIET')).toBe(true);
    expect(await turn(budget, 'person', 'T_QUIET')).toBe(false);
  });

  it('a backlog that filled the window yields the freed turns to a workspace that waited', async () => {
    prefix = `test-budget-${randomBytes(6).toString('hex')}`;
    const clock = fakeClock(0);
    const budget = await client({ limit: 10 }, clock);
    for (let i = 0; i < 10; i++) {
      clock.set(i * 1000);
      expect(await turn(budget, 'person', 'T_BUSY')).toBe(true);
    }
    expect(await turn(budget, 'person', 'T_QUIET')).toBe(false);
    // Five of the busy workspace's turns leave the window: it has had its half, the other goes.
    clock.set(WINDOW + 4000);
    expect(await turn(budget, 'person', 'T_BUSY')).toBe(false);
    expect(await turn(budget, 'person', 'T_QUIET')).toBe(true);
  });

  it('a large budget is leased a few turns at a time, and still never sends more than the limit in any window', async () => {
    prefix = `test-budget-${randomBytes(6).toString('hex')}`;
    const clock = fakeClock(0);
    // 640 per window: leases of up to 10 turns while the window is under half full.
    const settings = { limit: 640, maxWaitMs: 10 * WINDOW };
    const taken: { lane: string; at: number }[] = [];
    const [a, b] = [await client(settings, clock, taken), await client(settings, clock, taken)];
    const log = budgetKeys(testSpace(prefix), HOST).log;
    let quiet: string[] = [];
    for (let batch = 0; batch < 60; batch++) {
      // 40 requests at once from each of two processes, 20 ms apart: far more than the window allows.
      await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          clock.track(
            turn(i % 2 === 0 ? a : b, i % 5 === 0 ? 'background' : 'person', `T${i % 3}`, 10 * WINDOW),
          ),
        ),
      );
      clock.set(clock.now() + 20);
      // The first 240 turns fill under half of the first window: the quiet part, where leases work.
      if (batch === 2) quiet = await connections[0]!.zrange(log, '0', '-1');
    }
    expect(taken).toHaveLength(4800);
    // Each turn is told when it is sent (a leased one when it is spent, not when it was leased).
    const times = taken.map((t) => t.at).sort((x, y) => x - y);
    for (let i = 0; i + 640 < times.length; i++)
      expect(times[i + 640]! - times[i]!).toBeGreaterThanOrEqual(WINDOW);
    // Most turns of the first, quiet part of the first window came from a lease: one member in
    // the log per ask, the others named after it (`…​.2`, `…​.3`). (Read then: later windows are
    // full from their start or not, as the waiters happen to wake.)
    // Every turn taken is in it; a lease's turns not yet spent are logged already.
    expect(quiet.length).toBeGreaterThanOrEqual(240);
    const asked = quiet.filter((m) => !/\.\d+$/.test(m)).length;
    expect(quiet.length - asked).toBeGreaterThan(asked);
  });

  it('a leased turn not spent within its lease is dropped, never sent later', async () => {
    prefix = `test-budget-${randomBytes(6).toString('hex')}`;
    const clock = fakeClock(0);
    const taken: { lane: string; at: number }[] = [];
    const budget = await client({ limit: 640 }, clock, taken);
    const log = budgetKeys(testSpace(prefix), HOST).log;
    // A steady stream, one request a millisecond: the process leases ten turns at a time.
    for (let i = 0; i < 20; i++) {
      clock.set(i);
      expect(await turn(budget, 'person', 'T1')).toBe(true);
    }
    const logged = await connections.at(-1)!.zcard(log);
    expect(logged).toBeGreaterThan(20);
    // Later than the lease lasts: the turns left over are not spent; the next request asks again.
    clock.set(1000);
    expect(await turn(budget, 'person', 'T1')).toBe(true);
    expect(taken.at(-1)?.at).toBe(1000);
    const asks = (await connections.at(-1)!.zrangebyscore(log, '1000', '1000')).length;
    expect(asks).toBeGreaterThanOrEqual(1);
    expect(await connections.at(-1)!.zcard(log)).toBeGreaterThan(logged);
  });
});

describe('request budget in the client, against the emulator', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator({ seed: true });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it('a 429 without Retry-After pauses the host for every process, then requests flow again', async () => {
    prefix = `test-budget-${randomBytes(6).toString('hex')}`;
    const clock = fakeClock();
    const [budgetA, budgetB] = [await client({ limit: 100 }, clock), await client({ limit: 100 }, clock)];
    const host = new URL(emulator.url).host;
    const one = createCollabClient({ baseUrl: emulator.url, apiKey: emulator.apiKey, budget: budgetA });
    const two = createCollabClient({ baseUrl: emulator.url, apiKey: emulator.apiKey, budget: budgetB });
    try {
      emulator.faults.add({
        route: 'GET /v2/channels',
        status: 429,
        body: 'Retry later',
        contentType: 'text/plain',
      });
      const first = await one.listChannels().catch((error: unknown) => error);
      expect(isCollabError(first) && first.status === 429).toBe(true);
      expect((await budgetB.status(host)).pausedMs).toBeGreaterThan(0);
      const before = emulator.received.length;
      // The other process does not send into the pause: it is told to come back later.
      const second = await two
        .scoped({ lane: 'person', maxWaitMs: 0 })
        .listChannels()
        .catch((error: unknown) => error);
      expect(isCollabError(second) && second.kind === 'rateLimited' && second.status === undefined).toBe(
        true,
      );
      expect((second as { retryAfterMs?: number }).retryAfterMs).toBeGreaterThan(0);
      expect(emulator.received.length).toBe(before);
      // Once the pause is over, requests go out again.
      clock.set(clock.now() + 5000);
      await expect(two.listChannels()).resolves.toBeDefined();
      expect(emulator.received.length).toBe(before + 1);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('counts every request the client sends to the host', async () => {
    prefix = `test-budget-${randomBytes(6).toString('hex')}`;
    const clock = fakeClock();
    const budget = await client({ limit: 3 }, clock);
    const host = new URL(emulator.url).host;
    const collab = createCollabClient({ baseUrl: emulator.url, apiKey: emulator.apiKey, budget });
    try {
      const before = emulator.received.length;
      await collab.listChannels();
      await collab.listMembers();
      await collab.listPosts();
      expect((await budget.status(host)).used).toBe(3);
      const fourth = await collab.listChannels().catch((error: unknown) => error);
      expect(isCollabError(fourth) && fourth.kind === 'rateLimited').toBe(true);
      expect(emulator.received.length).toBe(before + 3);
    } finally {
      await collab.close();
    }
  });
});
