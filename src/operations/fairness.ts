/**
 * Fair shares of the queue between workspaces. The queue runs jobs in the order they came, so
 * one workspace's flood (400 commands at once) used to make every other workspace's next command
 * wait for the whole flood. Now each workspace's first `allowance` operations of a window go in
 * line as before; the ones beyond it wait in BullMQ's prioritized set, behind every job in line,
 * ordered by how far over its allowance their workspace is (its 1st operation over before
 * anyone's 2nd). A workspace that keeps within its allowance never waits behind another's excess.
 *
 * The bound: an operation of a workspace within its allowance starts after at most
 * `allowance` operations of each other workspace (per web process, as counted below), the jobs
 * already running (the workers' concurrency) and the background jobs (polls, digests) in line
 * before it. Nothing is refused or dropped: a flood only waits for others' turns. When nobody
 * else waits, prioritized jobs run as soon as a worker is free, so a lone busy workspace loses
 * nothing.
 *
 * Counts are per process and in memory, a sliding window approximated by two fixed ones (the
 * previous window's count weighted by how much of it still overlaps): the enqueue stays one
 * command to Redis, on the path of every acknowledgement. With several web processes behind a
 * balancer, each gives a workspace its allowance: the bound is the allowance times their number.
 */

export interface FairnessSettings {
  /** operations of a workspace per window that go in line as they come; 0 turns fair shares off */
  allowance: number;
  windowMs: number;
}

export const DEFAULT_FAIRNESS: FairnessSettings = { allowance: 20, windowMs: 60_000 };

/** BullMQ's lowest priority (priorities are 1, the highest, to 2^21). */
export const LOWEST_PRIORITY = 2 ** 21;

interface Window {
  /** start of the current fixed window */
  start: number;
  current: number;
  previous: number;
}

export interface FairShare {
  /**
   * Counts one operation of `teamId` and answers its BullMQ priority: undefined while the
   * workspace is within its allowance (the job goes in line), else how far over it is.
   */
  admit(teamId: string): number | undefined;
}

export function fairShare(
  settings: FairnessSettings = DEFAULT_FAIRNESS,
  now: () => number = Date.now,
): FairShare {
  if (settings.allowance <= 0) return { admit: () => undefined };
  const teams = new Map<string, Window>();
  let admitted = 0;
  /** Drops workspaces quiet for two windows (looked for every thousand operations). */
  const sweep = (at: number) => {
    for (const [teamId, window] of teams) {
      if (at - window.start >= 2 * settings.windowMs) teams.delete(teamId);
    }
  };
  return {
    admit(teamId) {
      const at = now();
      if (++admitted % 1000 === 0) sweep(at);
      const window = roll(teams.get(teamId), at, settings.windowMs);
      window.current += 1;
      teams.set(teamId, window);
      const overlap = 1 - (at - window.start) / settings.windowMs;
      const recent = window.current + window.previous * overlap;
      const over = Math.ceil(recent - settings.allowance);
      return over > 0 ? Math.min(over, LOWEST_PRIORITY) : undefined;
    },
  };
}

/** The workspace's window at `at`: the same, the next one (the current becomes the previous), or fresh. */
function roll(window: Window | undefined, at: number, windowMs: number): Window {
  if (!window) return { start: at - (at % windowMs), current: 0, previous: 0 };
  const elapsed = Math.floor((at - window.start) / windowMs);
  if (elapsed <= 0) return window;
  return {
    start: window.start + elapsed * windowMs,
    current: 0,
    previous: elapsed === 1 ? window.current : 0,
  };
}
