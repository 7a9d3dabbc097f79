/**
 * A deployment's polling at scale on a fake clock: N workspaces, each following F Slack channels
 * and mirroring T active threads, polled through the bot's own poll schedule
 * (src/store/pollSchedule.ts: due order, stretch, pacing), request budget (src/store/budget.ts)
 * and collaboration client against the emulator with the service's rate limit, on a real Redis.
 * People's operations arrive at a steady rate in the person lane.
 *
 * The clock moves only when every task in flight waits for it (a budget wait, a delayed retry):
 * what the machine's speed changes is how long the simulation takes, never what it measures.
 * Between dispatch and poll there is no queue here: a dispatched poll runs at once, one at a time
 * per poller (as BullMQ's deduplication keeps it in the bot); a poll refused by the budget waits
 * `retryAfterMs`, as the worker delays the job. The queue's own cost per poll is measured apart
 * (bench/simulate.ts).
 */
import { type CollabClient, createCollabClient } from '../../src/collab/client.ts';
import { isCollabError } from '../../src/collab/errors.ts';
import { POLL_DISPATCH_BATCH, POLL_DISPATCH_MS } from '../../src/jobs/pollDispatch.ts';
import { schedulerId } from '../../src/jobs/schedules.ts';
import { type Emulator, startEmulator } from '../../src/sandbox/emulator/index.ts';
import { createBudget } from '../../src/store/budget.ts';
import { createPollSchedule, type DuePoll, pollKeys } from '../../src/store/pollSchedule.ts';
import type { Redis } from '../../src/store/redis.ts';
import { commandCalls } from './commandStats.ts';

export interface SimulationOptions {
  redis: Redis;
  prefix: string;
  workspaces: number;
  feeds: number;
  threads: number;
  feedEveryMs: number;
  threadEveryMs: number;
  limit: number;
  windowMs: number;
  personReserve: number;
  /** simulated time */
  durationMs: number;
  /** intervals are measured from here on (the first turns after the start are a backlog) */
  measureFromMs: number;
  /** people's operations per simulated second, in random workspaces */
  personPerSecond: number;
  /** the workspaces' pollers are added evenly over this long from the start (0: all at once) */
  joinOverMs: number;
  progress?: (line: string) => void;
}

export interface SimulationResult {
  pollers: number;
  polls: number;
  requests: number;
  refused429: number;
  /** most requests in one of the emulator's fixed windows / in any sliding window */
  maxPerWindow: number;
  maxPerSlidingWindow: number;
  /** polls the budget made wait past their turn (re-run later, as the worker delays them) */
  delayedPolls: number;
  /** a poller's turn that came while its last poll still waited (not run twice) */
  skippedBusy: number;
  stretch: number;
  person: { count: number; p50: number; p99: number; max: number };
  /** mean interval per workspace, ms: feeds and threads */
  feedInterval: { min: number; max: number; mean: number; ratio: number; workspaces: number };
  threadInterval: { min: number; max: number; mean: number; ratio: number; workspaces: number };
  /** per poller (stricter than per workspace) */
  pollerRatio: { feed: number; thread: number };
  /** bytes of Redis per poller (the schedule's keys, MEMORY USAGE) and used_memory delta */
  schedule: { bytesPerPoller: number; usedMemoryDelta: number };
  dispatch: { calls: number; msPerCall: number; msPerPoll: number };
  redisCommands: { total: number; perPoll: number; top: string };
  redisCpuMsPerPoll: number;
  simCpuMsPerPoll: number;
  wallMs: number;
  simulatedMs: number;
}

/** A min-heap of timers on the fake clock. */
class Timers {
  readonly #heap: { at: number; seq: number; fire: () => void }[] = [];
  #seq = 0;
  get size() {
    return this.#heap.length;
  }
  peek(): number {
    return this.#heap[0]?.at ?? Number.POSITIVE_INFINITY;
  }
  push(at: number, fire: () => void) {
    const h = this.#heap;
    h.push({ at, seq: this.#seq++, fire });
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (less(h[p]!, h[i]!)) break;
      [h[p], h[i]] = [h[i]!, h[p]!];
      i = p;
    }
  }
  pop() {
    const h = this.#heap;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && less(h[l]!, h[m]!)) m = l;
        if (r < h.length && less(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i]!, h[m]!];
        i = m;
      }
    }
    return top;
  }
}
const less = (a: { at: number; seq: number }, b: { at: number; seq: number }) =>
  a.at < b.at || (a.at === b.at && a.seq < b.seq);

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function info(redis: Redis, section: string): Promise<string> {
  return redis.info(section);
}

function field(text: string, name: string): number {
  const m = new RegExp(`^${name}:([\\d.]+)`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

export async function simulate(o: SimulationOptions): Promise<SimulationResult> {
  const start = Date.UTC(2026, 0, 5, 9, 0, 0);
  let now = start;
  const timers = new Timers();
  let tasks = 0;
  let sleeping = 0;
  const delay = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      sleeping++;
      timers.push(now + Math.max(1, ms), () => {
        sleeping--;
        resolve();
      });
    });
  const spawn = (task: () => Promise<void>) => {
    tasks++;
    void task().finally(() => {
      tasks--;
    });
  };
  const settle = async () => {
    while (tasks > sleeping) await new Promise<void>((resolve) => setImmediate(resolve));
  };

  const emulator: Emulator = await startEmulator({
    seed: true,
    now: () => new Date(now),
    rateLimit: { limit: o.limit, windowMs: o.windowMs },
  });
  const host = new URL(emulator.url).host;
  const org = emulator.org();
  const channel = org.addChannel('sim-quiet', new Date(start - 86_400_000)).id;
  const members = [...org.members.keys()];
  const thread = org.actAs(members[0]!).createThread({ member_ids: [members[1]!], title: 'sim thread' });
  const requestTimes: number[] = [];
  emulator.events.on('request', (request) => {
    if (request.path.startsWith('/v2/')) requestTimes.push(request.at);
  });

  const space = { prefix: o.prefix };
  const budget = createBudget(
    o.redis,
    space,
    { limit: o.limit, windowMs: o.windowMs, personReserve: o.personReserve, pauseMs: 5000, maxWaitMs: 2000 },
    { now: () => now, delay },
  );
  const capacity = Math.max(1, o.limit - o.personReserve);
  const schedule = createPollSchedule(o.redis, space, { capacity, windowMs: o.windowMs });
  const collab: CollabClient = createCollabClient({
    baseUrl: emulator.url,
    apiKey: emulator.apiKey,
    budget,
    connections: 64,
  });

  // The pollers, added as their workspaces join.
  const team = (w: number) => `T${String(w).padStart(6, '0')}`;
  const pollersOf = (w: number) => {
    const teamId = team(w);
    const out: { id: string; operation: string; data: object; everyMs: number }[] = [];
    for (let f = 0; f < o.feeds; f++) {
      const slackChannel = `C${f}${teamId}`;
      out.push({
        id: schedulerId(teamId, 'feed', slackChannel),
        operation: 'pollFeed',
        data: { teamId, slackChannel },
        everyMs: o.feedEveryMs,
      });
    }
    for (let t = 0; t < o.threads; t++) {
      const threadId = `th_${t}${teamId}`;
      out.push({
        id: schedulerId(teamId, 'thread', threadId),
        operation: 'pollThread',
        data: { teamId, threadId },
        everyMs: o.threadEveryMs,
      });
    }
    return out;
  };
  const pollers = o.workspaces * (o.feeds + o.threads);
  const memoryBefore = field(await info(o.redis, 'memory'), 'used_memory');
  let joined = 0;
  const join = async (upTo: number) => {
    const batch: Promise<void>[] = [];
    for (; joined < upTo; joined++) {
      for (const p of pollersOf(joined)) {
        batch.push(
          schedule.set(host, p.id, { operation: p.operation, data: p.data, everyMs: p.everyMs }, now),
        );
      }
      if (batch.length >= 2000) await Promise.all(batch.splice(0));
    }
    await Promise.all(batch);
  };
  if (o.joinOverMs <= 0) await join(o.workspaces);
  const memoryAfter = o.joinOverMs <= 0 ? field(await info(o.redis, 'memory'), 'used_memory') : 0;

  // What is measured.
  const measureFrom = start + o.measureFromMs;
  const polled = new Map<string, { first: number; last: number; n: number }>();

  const personWaits: number[] = [];
  let polls = 0;
  let delayedPolls = 0;
  let skippedBusy = 0;
  let refused429 = 0;
  let stretch = 1;
  const busy = new Set<string>();

  const note = (id: string) => {
    polls++;
    if (now < measureFrom) return;
    const seen = polled.get(id);
    if (seen) {
      seen.last = now;
      seen.n++;
    } else polled.set(id, { first: now, last: now, n: 1 });
  };

  const runPoll = (p: DuePoll) => async () => {
    if (busy.has(p.id)) {
      skippedBusy++;
      return;
    }
    busy.add(p.id);
    const teamId = (p.data as { teamId: string }).teamId;
    try {
      for (;;) {
        try {
          const scoped = collab.scoped({ lane: 'background', teamId, maxWaitMs: 5000 });
          await (p.operation === 'pollFeed'
            ? scoped.listPosts({
                channelId: channel,
                sort: 'last_activity_at',
                direction: 'desc',
                limit: 20,
              })
            : scoped.listMessages(thread.id, { sort: 'created_at', direction: 'desc', limit: 50 }));
          note(p.id);
          return;
        } catch (error) {
          if (!isCollabError(error) || error.kind !== 'rateLimited') throw error;
          if (error.status === 429) refused429++;
          delayedPolls++;
          await delay(error.retryAfterMs ?? 1000);
        }
      }
    } finally {
      busy.delete(p.id);
    }
  };

  const runPerson = (teamId: string) => async () => {
    const arrival = now;
    for (;;) {
      try {
        await collab.scoped({ lane: 'person', teamId, maxWaitMs: 10_000 }).listChannels();
        personWaits.push(now - arrival);
        return;
      } catch (error) {
        if (!isCollabError(error) || error.kind !== 'rateLimited') throw error;
        if (error.status === 429) refused429++;
        await delay(error.retryAfterMs ?? 1000);
      }
    }
  };

  const statsBefore = commandCalls(await info(o.redis, 'commandstats'));
  const cpuText = await info(o.redis, 'cpu');
  const redisCpuBefore = field(cpuText, 'used_cpu_user') + field(cpuText, 'used_cpu_sys');
  const simCpuBefore = process.cpuUsage();
  const wallStart = performance.now();
  let dispatchCalls = 0;
  let dispatchMs = 0;
  let nextTick = start;
  let personDebt = 0;
  let random = 12345;
  const rand = () => {
    random = (random * 1103515245 + 12345) % 2147483648;
    return random / 2147483648;
  };
  const end = start + o.durationMs;
  let lastReport = start;
  while (now < end) {
    now = Math.min(nextTick, timers.peek());
    while (timers.size > 0 && timers.peek() <= now) timers.pop().fire();
    if (now === nextTick) {
      nextTick += POLL_DISPATCH_MS;
      if (o.joinOverMs > 0 && joined < o.workspaces) {
        await join(Math.min(o.workspaces, Math.ceil(((now - start + 1) / o.joinOverMs) * o.workspaces)));
      }
      personDebt += (o.personPerSecond * POLL_DISPATCH_MS) / 1000;
      for (; personDebt >= 1; personDebt--) spawn(runPerson(team(Math.floor(rand() * o.workspaces))));
      const t0 = performance.now();
      const taken = await schedule.dispatch(host, now, POLL_DISPATCH_BATCH);
      dispatchMs += performance.now() - t0;
      dispatchCalls++;
      stretch = taken.stretch;
      for (const p of taken.polls) spawn(runPoll(p));
      if (o.progress && now - lastReport >= 3_600_000) {
        lastReport = now;
        o.progress(
          `  ${((now - start) / 3_600_000).toFixed(0)} h simulated: ${polls} polls, stretch ${stretch.toFixed(1)}, ${((performance.now() - wallStart) / 1000).toFixed(0)} s`,
        );
      }
    }
    await settle();
  }
  const wallMs = performance.now() - wallStart;
  const simCpu = process.cpuUsage(simCpuBefore);
  const statsAfter = commandCalls(await info(o.redis, 'commandstats'));
  const cpuAfterText = await info(o.redis, 'cpu');
  const redisCpuAfter = field(cpuAfterText, 'used_cpu_user') + field(cpuAfterText, 'used_cpu_sys');

  // Redis: the schedule's keys per poller.
  const k = pollKeys(space, host);
  let scheduleBytes = 0;
  for (const key of [k.due, k.polls, k.demand, `${o.prefix}:polls:index`, `${o.prefix}:polls:hosts`]) {
    scheduleBytes += Number((await o.redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
  }

  // Requests per window: the emulator's fixed windows, and any sliding window.
  const perFixed = new Map<number, number>();
  for (const t of requestTimes) {
    const w = Math.floor(t / o.windowMs);
    perFixed.set(w, (perFixed.get(w) ?? 0) + 1);
  }
  let maxSliding = 0;
  for (let i = 0, j = 0; j < requestTimes.length; j++) {
    while (requestTimes[j]! - requestTimes[i]! >= o.windowMs) i++;
    maxSliding = Math.max(maxSliding, j - i + 1);
  }

  // Intervals: per poller, then per workspace (the mean of its pollers of one kind).
  const perWorkspace = { feed: new Map<string, number[]>(), thread: new Map<string, number[]>() };
  const perPoller = { feed: [] as number[], thread: [] as number[] };
  for (const [id, seen] of polled) {
    if (seen.n < 2) continue;
    const interval = (seen.last - seen.first) / (seen.n - 1);
    const kind = id.includes('-feed-') ? 'feed' : 'thread';
    const teamId = id.slice(0, id.indexOf('-'));
    perPoller[kind].push(interval);
    perWorkspace[kind].set(teamId, [...(perWorkspace[kind].get(teamId) ?? []), interval]);
  }
  const summary = (m: Map<string, number[]>) => {
    const means = [...m.values()].map((xs) => xs.reduce((a, b) => a + b, 0) / xs.length);
    if (means.length === 0) return { min: 0, max: 0, mean: 0, ratio: 0, workspaces: 0 };
    const min = Math.min(...means);
    const max = Math.max(...means);
    return {
      min,
      max,
      mean: means.reduce((a, b) => a + b, 0) / means.length,
      ratio: max / min,
      workspaces: means.length,
    };
  };
  const ratio = (xs: number[]) => (xs.length ? Math.max(...xs) / Math.min(...xs) : 0);

  const commands = new Map<string, number>();
  for (const [name, calls] of statsAfter) {
    const d = calls - (statsBefore.get(name) ?? 0);
    if (d > 0 && name !== 'info' && name !== 'memory') commands.set(name, d);
  }
  const totalCommands = [...commands.values()].reduce((a, b) => a + b, 0);
  const top = [...commands.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([name, n]) => `${name} ${(n / Math.max(1, polls)).toFixed(2)}`)
    .join(', ');
  personWaits.sort((a, b) => a - b);

  await collab.close();
  await emulator.close();
  return {
    pollers,
    polls,
    requests: requestTimes.length,
    refused429,
    maxPerWindow: Math.max(0, ...perFixed.values()),
    maxPerSlidingWindow: maxSliding,
    delayedPolls,
    skippedBusy,
    stretch,
    person: {
      count: personWaits.length,
      p50: percentile(personWaits, 50),
      p99: percentile(personWaits, 99),
      max: personWaits.at(-1) ?? 0,
    },
    feedInterval: summary(perWorkspace.feed),
    threadInterval: summary(perWorkspace.thread),
    pollerRatio: { feed: ratio(perPoller.feed), thread: ratio(perPoller.thread) },
    schedule: { bytesPerPoller: scheduleBytes / pollers, usedMemoryDelta: memoryAfter - memoryBefore },
    dispatch: {
      calls: dispatchCalls,
      msPerCall: dispatchMs / Math.max(1, dispatchCalls),
      msPerPoll: dispatchMs / Math.max(1, polls),
    },
    redisCommands: { total: totalCommands, perPoll: totalCommands / Math.max(1, polls), top },
    redisCpuMsPerPoll: ((redisCpuAfter - redisCpuBefore) * 1000) / Math.max(1, polls),
    simCpuMsPerPoll: (simCpu.user + simCpu.system) / 1000 / Math.max(1, polls),
    wallMs,
    simulatedMs: o.durationMs,
  };
}

/**
 * Redis bytes the store keeps per followed channel (its link and feed state, with a watermark of
 * one page) and per mirrored thread (its origin, mirror state, the DM's thread, and one message
 * the bot sent), written through the store as the bot writes them, over `n` workspaces of
 * `feeds` + `threads` each: the used_memory delta divided out. Watched posts, cards and caches
 * come on top, with activity.
 */
export async function storeMemory(
  redis: Redis,
  prefix: string,
  n: number,
  feeds: number,
  threads: number,
): Promise<{ perFeed: number; perThread: number }> {
  const { createStore } = await import('../../src/store/index.ts');
  const store = createStore(redis, { prefix });
  const used = async () => field(await info(redis, 'memory'), 'used_memory');
  const at = '2026-01-05T09:00:00.000Z';
  const watermark = { at, ids: Array.from({ length: 3 }, (_, i) => `pst_${String(i).padStart(24, '0')}`) };
  const before = await used();
  for (let w = 0; w < n; w++) {
    const teamId = `TS${String(w).padStart(6, '0')}`;
    const batch: Promise<unknown>[] = [];
    for (let f = 0; f < feeds; f++) {
      const slackChannel = `C${f}${teamId}`;
      const channelId = `chn_${String(w * 10 + f).padStart(24, '0')}`;
      batch.push(
        store.links.set(teamId, slackChannel, {
          channelId,
          channelName: `channel-${f}`,
          bridgeReplies: false,
          linkedBy: 'U0123456789',
          linkedAt: at,
        }),
        store.feeds.save(teamId, slackChannel, {
          channelId,
          followedBy: 'U0123456789',
          followedAt: at,
          watermark,
          since: at,
        }),
      );
    }
    await Promise.all(batch.splice(0));
  }
  const afterFeeds = await used();
  for (let w = 0; w < n; w++) {
    const teamId = `TS${String(w).padStart(6, '0')}`;
    const batch: Promise<unknown>[] = [];
    for (let t = 0; t < threads; t++) {
      const threadId = `thr_${String(w * 10 + t).padStart(24, '0')}`;
      batch.push(
        store.threads.remember(teamId, threadId, {
          slackChannel: `D${t}${teamId}`,
          createdBy: 'U0123456789',
          memberIds: ['mbr_000000000000000000000001', `mbr_${String(w * 10 + t).padStart(24, '0')}`],
        }),
        store.mirrors.startAt(teamId, threadId, watermark),
        store.mirrors.touch(teamId, threadId, Date.parse(at)),
        store.mirrors.setInterval(teamId, threadId, 'active'),
        store.mirrors.rememberSent(teamId, threadId, `msg_${String(w * 10 + t).padStart(24, '0')}`),
      );
    }
    await Promise.all(batch.splice(0));
  }
  const afterThreads = await used();
  return {
    perFeed: (afterFeeds - before) / (n * feeds),
    perThread: (afterThreads - afterFeeds) / (n * threads),
  };
}
