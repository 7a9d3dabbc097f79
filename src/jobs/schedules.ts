/**
 * Recurring work. Digests and other timed work are BullMQ job schedulers on the operations
 * queue: exactly one job per tick however many workers run, and schedules survive restarts
 * because they live in Redis. Polls (feeds, mirrored threads) are not: they live in the poll
 * schedule (store/pollSchedule.ts), which a dispatcher (pollDispatch.ts) reads to enqueue each
 * poll when it is due and the request budget has room, so that a short budget stretches when
 * polls run instead of costing a job per skipped tick. Both are reached through this one seam.
 *
 * Scheduler ids are `<teamId>-<kind>-<key>`, so everything of one workspace can be found and
 * removed by its prefix (uninstall), and everything of one kind of one Slack channel by its key.
 *
 * With queue shards (operations/shards.ts) a job scheduler lives on its workspace's shard, so its ticks
 * run there like the workspace's other operations; reads and removals by id look at every shard.
 */
import type { Queue } from 'bullmq';
import { JOB_SCHEMAS, type JobInput, type Operation } from '../operations/schemas.ts';
import type { PollInfo, PollSchedule } from '../store/pollSchedule.ts';

export type ScheduleKind = 'feed' | 'thread' | 'digest' | 'wait' | 'notify';

export function schedulerId(teamId: string, kind: ScheduleKind, key: string): string {
  return `${teamId}-${kind}-${key}`.replace(/[:\s]/g, '_');
}

export function teamSchedulerPrefix(teamId: string): string {
  return `${teamId}-`.replace(/[:\s]/g, '_');
}

export type Timing = { everyMs: number } | { pattern: string; tz: string };

export interface ScheduleInfo {
  id: string;
  operation: string;
  every?: number;
  pattern?: string;
  tz?: string;
  /** epoch ms of the next run, when known */
  next?: number;
}

export interface Schedules {
  /** Creates or replaces a schedule; the job data is validated like any enqueue. */
  upsert<O extends Operation>(id: string, timing: Timing, operation: O, data: JobInput<O>): Promise<void>;
  remove(id: string): Promise<boolean>;
  /** Removes every schedule whose id starts with `prefix`; answers how many. */
  removeByPrefix(prefix: string): Promise<number>;
  list(prefix?: string): Promise<ScheduleInfo[]>;
  get(id: string): Promise<ScheduleInfo | undefined>;
}

/** The operations queue's shards (operations/queue.ts). */
export interface ShardedQueues {
  readonly queues: readonly Queue[];
  queueFor(teamId: string): Queue;
}

/** Operations scheduled as polls (the poll schedule) rather than as job schedulers. */
export const POLL_OPERATIONS: ReadonlySet<string> = new Set(['pollFeed', 'pollThread']);

export interface PollRouting {
  schedule: PollSchedule;
  /** the service host of a workspace (whose budget paces its polls) */
  hostOf(teamId: string): Promise<string>;
  now?: () => number;
  /** told when a poller was added or changed (the local dispatcher looks at once) */
  onChange?: () => void;
}

/** The team of a schedule id (`<teamId>-<kind>-<key>`; Slack team ids have no `-`). */
export function teamOfScheduleId(id: string): string {
  const at = id.indexOf('-');
  return at < 0 ? id : id.slice(0, at);
}

export function createSchedules(shards: ShardedQueues, polls?: PollRouting): Schedules {
  const now = polls?.now ?? Date.now;
  const pollInfo = (p: PollInfo): ScheduleInfo => ({
    id: p.id,
    operation: p.operation,
    every: p.everyMs,
    next: p.next,
  });
  const toInfo = (s: {
    key: string;
    id?: string | null;
    name: string;
    every?: number;
    pattern?: string;
    tz?: string;
    next?: number;
  }): ScheduleInfo => ({
    id: s.id ?? s.key,
    operation: s.name,
    ...(s.every !== undefined ? { every: s.every } : {}),
    ...(s.pattern !== undefined ? { pattern: s.pattern } : {}),
    ...(s.tz !== undefined ? { tz: s.tz } : {}),
    ...(s.next !== undefined ? { next: s.next } : {}),
  });

  async function all(): Promise<ScheduleInfo[]> {
    const out: ScheduleInfo[] = [];
    const pageSize = 500;
    for (const queue of shards.queues) {
      for (let start = 0; ; start += pageSize) {
        const page = await queue.getJobSchedulers(start, start + pageSize - 1, true);
        out.push(...page.map(toInfo));
        if (page.length < pageSize) break;
      }
    }
    return out;
  }

  /** Removes the job scheduler from whichever shard holds it. */
  async function removeScheduler(id: string): Promise<boolean> {
    let removed = false;
    for (const queue of shards.queues) if (await queue.removeJobScheduler(id)) removed = true;
    return removed;
  }

  /** Removes the schedule, a poller or a job scheduler, wherever it is. */
  async function removeOne(id: string): Promise<boolean> {
    const poller = polls ? await polls.schedule.remove(id) : false;
    const scheduler = await removeScheduler(id);
    return poller || scheduler;
  }

  return {
    async upsert(id, timing, operation, data) {
      const parsed = JOB_SCHEMAS[operation].parse(data);
      const teamId = 'origin' in parsed ? parsed.origin.teamId : parsed.teamId;
      if (polls && POLL_OPERATIONS.has(operation) && 'everyMs' in timing) {
        const host = await polls.hostOf(teamId);
        // One script adds the poller or changes its interval: it is never missing in between.
        await polls.schedule.set(host, id, { operation, data: parsed, everyMs: timing.everyMs }, now());
        // A job scheduler of the same id (made before polls had their schedule) stops here.
        await removeScheduler(id);
        polls.onChange?.();
        return;
      }
      const queue = shards.queueFor(teamId);
      const repeat =
        'everyMs' in timing ? { every: timing.everyMs } : { pattern: timing.pattern, tz: timing.tz };
      if ('everyMs' in timing) {
        // BullMQ keeps a scheduler's `offset` across upserts: an offset left by a longer `every`
        // pushes a late tick up to that longer interval away. A changed `every` starts afresh.
        const existing = await queue.getJobScheduler(id);
        if (existing?.every !== undefined && Number(existing.every) !== timing.everyMs) {
          await queue.removeJobScheduler(id);
        }
      }
      await queue.upsertJobScheduler(id, repeat, {
        name: operation,
        data: parsed,
        // A tick that fails on a passing API error is retried, like any operation; the
        // digest's slot claim and the feed's watermark keep retries from repeating an effect.
        opts: {
          attempts: 4,
          backoff: { type: 'exponential', delay: 2000, jitter: 0.5 },
          removeOnComplete: { count: 100 },
          removeOnFail: { count: 100 },
        },
      });
    },
    remove: removeOne,
    async removeByPrefix(prefix) {
      let removed = 0;
      for (const schedule of await all()) {
        if (schedule.id.startsWith(prefix) && (await removeScheduler(schedule.id))) removed++;
      }
      for (const poller of polls ? await polls.schedule.list(prefix) : []) {
        if (await polls?.schedule.remove(poller.id)) removed++;
      }
      return removed;
    },
    async list(prefix = '') {
      const pollers = polls ? (await polls.schedule.list(prefix)).map(pollInfo) : [];
      const ids = new Set(pollers.map((p) => p.id));
      return [...pollers, ...(await all()).filter((s) => s.id.startsWith(prefix) && !ids.has(s.id))];
    },
    async get(id) {
      const poller = polls ? await polls.schedule.get(id) : undefined;
      if (poller) return pollInfo(poller);
      for (const queue of shards.queues) {
        const found = await queue.getJobScheduler(id);
        if (found) return toInfo(found);
      }
      return undefined;
    },
  };
}
