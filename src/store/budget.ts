/**
 * One request budget per service host, shared by every process of the deployment through Redis:
 * the service allows a number of requests per window for the whole client address (500 per 30 s),
 * so every worker and web process counts against one sliding log of the requests sent.
 *
 * - A sliding log (a sorted set of send times), checked and appended by one Lua script: no two
 *   processes can both take the last turn, and no window of `windowMs` ever holds more than
 *   `limit` requests.
 * - Two lanes. Background work (polls, digests, unfurls) may use the window only up to
 *   `limit - personReserve`; a person's operation may use all of it. While a person's request
 *   waits for a turn, background requests wait too.
 * - Fair shares: once the person lane is half full, a workspace that has sent its share
 *   (the lane divided by the workspaces that sent or waited in the window) waits while others go.
 * - A 429 pauses the host for everyone, briefly: `pauseMs` (or `Retry-After` when shorter); the
 *   refused job itself waits the whole `Retry-After` (engine/failure.ts).
 * - Times are the processes' clocks (passed in, so one fake clock can drive a simulation): the
 *   processes of a deployment must keep their clocks in step (NTP) — a skew of s ms lets a
 *   window hold the requests of s ms more.
 * - Polls: when the pollers of all workspaces ask for more than the background lane gives, the
 *   poll schedule (store/pollSchedule.ts) stretches every poller's interval by the same factor
 *   and keeps it here for App Home and /metrics; it reads the counters of background requests
 *   this script keeps.
 *
 * - Leases: while the window is less than half full, a process takes a few turns at once
 *   (as many as it took in the last lease period, up to `limit / 64`, at most 32) and spends them
 *   within `LEASE_MS`; what it has not spent by then is dropped, never carried on. So a busy
 *   worker asks Redis for one turn in many, while fair shares and people's precedence (which
 *   only bite past half the window) work turn by turn as before. A leased turn is logged when it
 *   is leased and sent up to `LEASE_MS` later, so the log is read over `windowMs + LEASE_MS`
 *   whenever leases are on: no window of `windowMs` ever holds more than `limit` sends.
 *   A budget too small to lease (`limit` under 128) takes every turn on its own, as before.
 *
 * Every key of one host shares the hash tag `{host}`: one slot on a Redis Cluster.
 */

import type { Result } from 'ioredis';
import type { BudgetLane, BudgetScope, RequestBudget } from '../collab/budget.ts';
import { CollabError } from '../collab/errors.ts';
import type { KeySpace } from './keys.ts';
import { storeScript } from './lua.ts';
import type { Redis } from './redis.ts';

export interface BudgetSettings {
  /** requests per window for the whole deployment (COLLAB_RATE_LIMIT) */
  limit: number;
  /** the window (COLLAB_RATE_WINDOW_MS) */
  windowMs: number;
  /** turns of each window only a person's operation may take (COLLAB_RATE_PERSON_RESERVE) */
  personReserve: number;
  /** how long a 429 pauses the host (COLLAB_RATE_PAUSE_MS; a shorter Retry-After shortens it) */
  pauseMs: number;
  /** how long a request outside any scope waits for a turn before it fails as rate limited */
  maxWaitMs?: number;
}

export const DEFAULT_BUDGET: BudgetSettings = {
  limit: 500,
  windowMs: 30_000,
  personReserve: 100,
  pauseMs: 5_000,
  maxWaitMs: 2_000,
};

export interface BudgetStatus {
  host: string;
  /** requests sent in the last window */
  used: number;
  limit: number;
  /** ms the host stays paused after a 429 (0: not paused) */
  pausedMs: number;
  /** how much every polling interval is stretched (1: as configured) */
  stretch: number;
}

export interface HostBudget extends RequestBudget {
  status(host: string): Promise<BudgetStatus>;
  /** hosts this process has sent to */
  hosts(): string[];
}

/** How long a leased turn may wait in its process before it is dropped. */
export const LEASE_MS = 250;
/** The most turns one lease takes. */
const LEASE_CAP = 32;

/** Turns one lease may take for a budget of `limit` (1: no leases). */
export function leaseMax(limit: number): number {
  return Math.max(1, Math.min(LEASE_CAP, Math.floor(limit / 64)));
}

/** Takes a turn of the budget, or says how long to wait (lua/budgetTake.lua). */
const TAKE = storeScript('budgetTake');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    budgetTake(
      log: string,
      pause: string,
      personWaiting: string,
      teamLog: string,
      teams: string,
      bgCount: string,
      now: number,
      windowMs: number,
      laneLimit: number,
      person: string,
      team: string,
      member: string,
      personLimit: number,
      want: number,
    ): Result<[number, number, number], Context>;
  }
}

export function budgetKeys(space: KeySpace, host: string) {
  const h = `${space.prefix}:budget:{${host.replace(/[{}\s]/g, '_')}}`;
  return {
    log: `${h}:log`,
    pause: `${h}:pause`,
    personWaiting: `${h}:personwaiting`,
    teamLog: (teamId: string) => `${h}:team:${teamId.replace(/[:\s]/g, '_')}`,
    teams: `${h}:teams`,
    /** counters of fixed windows, numbered by `floor(now / windowMs)` */
    bg: (n: number) => `${h}:bg:${n}`,
    /** polls dispatched (store/pollSchedule.ts) */
    runs: (n: number) => `${h}:runs:${n}`,
    stretch: `${h}:stretch`,
  };
}

export interface BudgetDeps {
  now?: () => number;
  /** waits between asks; default a timer (tests and simulations pass a fake clock's) */
  delay?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** told of every turn taken, with the time the log recorded it */
  onTaken?: (host: string, lane: BudgetLane, at: number) => void;
}

export function createBudget(
  redis: Redis,
  space: KeySpace,
  settings: BudgetSettings = DEFAULT_BUDGET,
  deps: BudgetDeps = {},
): HostBudget {
  const now = deps.now ?? Date.now;
  const delay = deps.delay ?? wait;
  redis.defineCommand('budgetTake', { numberOfKeys: 6, lua: TAKE });
  const known = new Set<string>();
  let sequence = 0;
  const unique = `${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const backgroundLimit = Math.max(1, settings.limit - settings.personReserve);
  const laneLimit = (lane: BudgetLane) => (lane === 'person' ? settings.limit : backgroundLimit);
  const maxLease = leaseMax(settings.limit);
  // Leased turns are sent up to LEASE_MS after the log counts them: the log is read over that much more.
  const logWindowMs = settings.windowMs + (maxLease > 1 ? LEASE_MS : 0);

  /** Turns this process holds, per host, lane and team; spent by `take`, dropped when stale. */
  interface Lease {
    left: number;
    until: number;
    loggedAt: number;
    /** when this process took its last turns here (to size the next lease by the demand) */
    recent: number[];
    /** a lease being asked for: other takers wait for it rather than ask too */
    asking?: Promise<void> | undefined;
  }
  const leases = new Map<string, Lease>();

  function leaseOf(host: string, scope: BudgetScope): Lease {
    const key = `${host}\n${scope.lane}\n${scope.teamId ?? ''}`;
    let lease = leases.get(key);
    if (!lease) {
      lease = { left: 0, until: 0, loggedAt: 0, recent: [] };
      leases.set(key, lease);
      // Bounded: a lease per host, lane and team this process sent for; the oldest go first.
      if (leases.size > 10_000) leases.delete(leases.keys().next().value as string);
    }
    return lease;
  }

  /** Spends a turn of the lease, if it holds one still fresh. */
  function spend(host: string, scope: BudgetScope, lease: Lease): boolean {
    const at = now();
    if (lease.left <= 0 || at >= lease.until) return false;
    lease.left -= 1;
    lease.recent.push(at);
    if (lease.recent.length > maxLease) lease.recent.shift();
    // A leased turn is sent now: told at this time (never earlier than the log counts it).
    deps.onTaken?.(host, scope.lane, Math.max(at, lease.loggedAt));
    return true;
  }

  /** As many turns as this process took here in the last lease period, and one more. */
  function demand(lease: Lease): number {
    const since = now() - LEASE_MS;
    return Math.min(maxLease, 1 + lease.recent.filter((t) => t > since).length);
  }

  async function ask(
    host: string,
    scope: BudgetScope,
    want = 1,
  ): Promise<{ waitMs: number; taken: number; at: number; loggedAt: number }> {
    const k = budgetKeys(space, host);
    const at = now();
    const member = `${at}-${unique}-${sequence++}`;
    const window = Math.floor(at / settings.windowMs);
    const [waitMs, loggedAt, taken] = await redis.budgetTake(
      k.log,
      k.pause,
      k.personWaiting,
      k.teamLog(scope.teamId ?? ''),
      k.teams,
      k.bg(window),
      at,
      logWindowMs,
      laneLimit(scope.lane),
      scope.lane === 'person' ? '1' : '0',
      scope.teamId ?? '',
      member,
      settings.limit,
      want,
    );
    if (Number(waitMs) <= 0) deps.onTaken?.(host, scope.lane, Number(loggedAt));
    return { waitMs: Number(waitMs), taken: Number(taken ?? 1), at, loggedAt: Number(loggedAt) };
  }

  /**
   * One turn from a lease (asking Redis for one when the lease is spent, one ask at a time per
   * lease); answers 0 when the turn is taken, else the ms to wait.
   */
  async function leased(host: string, scope: BudgetScope): Promise<number> {
    const lease = leaseOf(host, scope);
    for (;;) {
      if (spend(host, scope, lease)) return 0;
      if (!lease.asking) break;
      await lease.asking;
    }
    let result: { waitMs: number; taken: number; at: number; loggedAt: number } | undefined;
    const asking = (async () => {
      result = await ask(host, scope, demand(lease));
      if (result.waitMs <= 0 && result.taken > 1) {
        // The first of the turns is this taker's; the rest wait in the lease for the next ones.
        lease.left = result.taken - 1;
        lease.until = result.at + LEASE_MS;
        lease.loggedAt = result.loggedAt;
      }
    })();
    lease.asking = asking;
    try {
      await asking;
    } finally {
      if (lease.asking === asking) lease.asking = undefined;
    }
    const { waitMs } = result ?? { waitMs: 1 };
    if (waitMs <= 0) {
      lease.recent.push(now());
      if (lease.recent.length > maxLease) lease.recent.shift();
    }
    return waitMs;
  }

  return {
    async take(host, operation, scope, signal) {
      known.add(host);
      const maxWaitMs = scope.maxWaitMs ?? settings.maxWaitMs ?? DEFAULT_BUDGET.maxWaitMs!;
      const deadline = now() + maxWaitMs;
      for (;;) {
        const waitMs = maxLease > 1 ? await leased(host, scope) : (await ask(host, scope)).waitMs;
        if (waitMs <= 0) return;
        if (now() + waitMs > deadline) {
          throw new CollabError({
            kind: 'rateLimited',
            reason: 'rateLimited',
            operation,
            retryAfterMs: waitMs,
            detail: 'the request budget of this service host is spent for now',
          });
        }
        // A little jitter, so waiters of many processes do not all ask again at once.
        await delay(waitMs + Math.floor(Math.random() * 20), signal);
      }
    },
    async refused(host, retryAfterMs) {
      const k = budgetKeys(space, host);
      // The host is paused: turns this process leased from it are not spent.
      for (const [key, lease] of leases) if (key.startsWith(`${host}\n`)) lease.left = 0;
      // Brief: the refused job itself waits the whole Retry-After; the host only holds back a moment.
      const pauseMs = Math.max(1, Math.min(retryAfterMs ?? settings.pauseMs, settings.pauseMs));
      // The key holds when the pause ends (the clock every process compares with); it expires later.
      await redis.set(k.pause, String(now() + pauseMs), 'PX', pauseMs + settings.windowMs);
    },
    async status(host) {
      const k = budgetKeys(space, host);
      const at = now();
      const [used, pausedUntil, stretch] = await Promise.all([
        redis.zcount(k.log, `(${at - settings.windowMs}`, '+inf'),
        redis.get(k.pause),
        redis.get(k.stretch),
      ]);
      return {
        host,
        used,
        limit: settings.limit,
        pausedMs: Math.max(0, Number(pausedUntil ?? 0) - at),
        stretch: stretch ? Math.max(1, Number(stretch)) : 1,
      };
    },
    hosts: () => [...known],
  };
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
