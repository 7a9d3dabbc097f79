/**
 * When each poller (a followed channel's feed, a mirrored thread) polls next: one sorted set per
 * service host whose score is the poller's next due time, and a dispatcher that takes the due
 * pollers in order, as many as the host's request budget gives background work.
 *
 * - The stretch is in *when* polls are due, not in skipping them: a poller taken now is due again
 *   after its interval times the host's stretch, the factor by which all pollers of the host ask
 *   for more than the background lane gives (their summed rate times the requests a poll costs,
 *   over the lane). Every poller's interval stretches by the same factor, so the stretch is fair
 *   across workspaces, and a poll costs O(log n) in Redis, with no per-poller job scheduler and no
 *   job for a tick that does not poll.
 * - Taken in due order and paced by the lane (what the last window's background turns and people
 *   left), so a backlog drains at the lane's pace, oldest first, and no poll is enqueued that the
 *   lane has no room for.
 * - Changing a poller's interval is one script: it is never missing from the schedule, and a
 *   shorter interval makes it due sooner (a thread that became active), a longer one from its next
 *   turn on.
 * - Times are passed in (a fake clock drives the simulation, bench/simulate.ts).
 *
 * Keys of one host share the budget's hash tag `{host}` (store/budget.ts): the dispatcher reads
 * the budget's counters in the same script. One deployment-wide index (`id NUL host`, in
 * lexicographic order) finds a poller's host by its id and lists a workspace's pollers by prefix.
 */
import type { Result } from 'ioredis';
import { budgetKeys } from './budget.ts';
import type { KeySpace } from './keys.ts';
import { storeScript } from './lua.ts';
import type { Redis } from './redis.ts';

export interface Poll {
  /** the operation a due poll enqueues (pollFeed, pollThread) */
  operation: string;
  /** its job data */
  data: unknown;
  /** the configured interval; the stretch multiplies it */
  everyMs: number;
}

export interface DuePoll {
  id: string;
  operation: string;
  data: unknown;
}

export interface Dispatched {
  polls: DuePoll[];
  /** the host's stretch now (1: as configured) */
  stretch: number;
}

export interface PollInfo {
  id: string;
  host: string;
  operation: string;
  everyMs: number;
  /** epoch ms it is due next */
  next: number;
}

export interface PollSettings {
  /** the budget's background lane: requests per window polls may use (limit - personReserve) */
  capacity: number;
  windowMs: number;
}

export interface PollSchedule {
  /** Adds a poller (due now) or changes its interval and data, atomically. */
  set(host: string, id: string, poll: Poll, now: number): Promise<void>;
  remove(id: string): Promise<boolean>;
  get(id: string): Promise<PollInfo | undefined>;
  /** pollers whose id starts with `prefix` (a workspace's feeds: `<teamId>-feed-`) */
  list(prefix: string): Promise<PollInfo[]>;
  /** Takes up to `max` due pollers of `host` in due order, as the background lane allows. */
  dispatch(host: string, now: number, max: number): Promise<Dispatched>;
  /** hosts that have pollers */
  hosts(): Promise<string[]>;
}

/** The share of the background lane the stretch aims at (lua/pollDispatch.lua). */
export const HEADROOM = 0.95;

/** Adds a poller, due as the lane allows, or changes its interval (lua/pollSet.lua). */
const SET = storeScript('pollSet');

/** Takes a poller out, its rate out of the demand (lua/pollRemove.lua). */
const REMOVE = storeScript('pollRemove');

/** Takes the due pollers the lane has room for, and stretches every interval to fit it (lua/pollDispatch.lua). */
const DISPATCH = storeScript('pollDispatch');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    pollSet(
      due: string,
      polls: string,
      demand: string,
      stretch: string,
      lane: string,
      id: string,
      everyMs: number,
      value: string,
      now: number,
      capacity: number,
      windowMs: number,
      random: number,
      headroom: number,
    ): Result<number, Context>;
    pollRemove(due: string, polls: string, demand: string, id: string): Result<number, Context>;
    pollDispatch(
      due: string,
      polls: string,
      demand: string,
      stretch: string,
      log: string,
      bg: string,
      bgPrev: string,
      runs: string,
      runsPrev: string,
      runLog: string,
      lane: string,
      now: number,
      windowMs: number,
      capacity: number,
      max: number,
      member: string,
      headroom: number,
    ): Result<(string | number)[], Context>;
  }
}

export function pollKeys(space: KeySpace, host: string) {
  const b = budgetKeys(space, host);
  const h = b.log.slice(0, -':log'.length);
  return {
    ...b,
    due: `${h}:due`,
    polls: `${h}:polls`,
    demand: `${h}:demand`,
    runLog: `${h}:runlog`,
    lane: `${h}:lane`,
  };
}

function indexKeys(space: KeySpace) {
  return { index: `${space.prefix}:polls:index`, hosts: `${space.prefix}:polls:hosts` };
}

function parseValue(value: string): { everyMs: number; operation: string; data: unknown } {
  const first = value.indexOf('|');
  const second = value.indexOf('|', first + 1);
  return {
    everyMs: Number(value.slice(0, first)),
    operation: value.slice(first + 1, second),
    data: JSON.parse(value.slice(second + 1)) as unknown,
  };
}

export function createPollSchedule(
  redis: Redis,
  space: KeySpace,
  settings: PollSettings,
  random: () => number = Math.random,
): PollSchedule {
  redis.defineCommand('pollSet', { numberOfKeys: 5, lua: SET });
  redis.defineCommand('pollRemove', { numberOfKeys: 3, lua: REMOVE });
  redis.defineCommand('pollDispatch', { numberOfKeys: 11, lua: DISPATCH });
  let looks = 0;
  const unique = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const ix = indexKeys(space);

  async function hostOf(id: string): Promise<string | undefined> {
    const [entry] = await redis.zrangebylex(ix.index, `[${id}\u0000`, `(${id}\u0001`, 'LIMIT', 0, 1);
    return entry?.slice(id.length + 1);
  }

  async function info(id: string, host: string): Promise<PollInfo | undefined> {
    const k = pollKeys(space, host);
    const [value, due] = await Promise.all([redis.hget(k.polls, id), redis.zscore(k.due, id)]);
    if (!value || due === null) return undefined;
    const { everyMs, operation } = parseValue(value);
    return { id, host, operation, everyMs, next: Number(due) };
  }

  return {
    async set(host, id, poll, now) {
      const previous = await hostOf(id);
      const k = pollKeys(space, host);
      // Indexed first: a poller is always found by its id, even while it is being added.
      await redis.zadd(ix.index, 0, `${id}\u0000${host}`);
      await redis.sadd(ix.hosts, host);
      await redis.pollSet(
        k.due,
        k.polls,
        k.demand,
        k.stretch,
        k.lane,
        id,
        poll.everyMs,
        `${poll.operation}|${JSON.stringify(poll.data)}`,
        now,
        settings.capacity,
        settings.windowMs,
        random(),
        HEADROOM,
      );
      if (previous !== undefined && previous !== host) {
        // The workspace moved to another service host: its pollers follow it.
        const old = pollKeys(space, previous);
        await redis.pollRemove(old.due, old.polls, old.demand, id);
        await redis.zrem(ix.index, `${id}\u0000${previous}`);
      }
    },
    async remove(id) {
      const host = await hostOf(id);
      if (host === undefined) return false;
      const k = pollKeys(space, host);
      const removed = await redis.pollRemove(k.due, k.polls, k.demand, id);
      await redis.zrem(ix.index, `${id}\u0000${host}`);
      return removed === 1;
    },
    async get(id) {
      const host = await hostOf(id);
      return host === undefined ? undefined : info(id, host);
    },
    async list(prefix) {
      const entries = await redis.zrangebylex(ix.index, `[${prefix}`, `(${prefix}\u00ff`);
      const found = await Promise.all(
        entries.map((entry) => {
          const at = entry.indexOf('\u0000');
          return info(entry.slice(0, at), entry.slice(at + 1));
        }),
      );
      return found.filter((p): p is PollInfo => p !== undefined);
    },
    async dispatch(host, now, max) {
      const k = pollKeys(space, host);
      const window = Math.floor(now / settings.windowMs);
      const out = await redis.pollDispatch(
        k.due,
        k.polls,
        k.demand,
        k.stretch,
        k.log,
        k.bg(window),
        k.bg(window - 1),
        k.runs(window),
        k.runs(window - 1),
        k.runLog,
        k.lane,
        now,
        settings.windowMs,
        settings.capacity,
        max,
        `${now}-${unique}-${looks++}`,
        HEADROOM,
      );
      const polls: DuePoll[] = [];
      for (let i = 1; i + 1 < out.length; i += 2) {
        const { operation, data } = parseValue(String(out[i + 1]));
        polls.push({ id: String(out[i]), operation, data });
      }
      return { polls, stretch: Number(out[0]) / 1000 };
    },
    async hosts() {
      return redis.smembers(ix.hosts);
    },
  };
}
