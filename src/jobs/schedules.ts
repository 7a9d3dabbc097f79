/**
 * Recurring work (feed polls, thread mirroring, digests) as BullMQ job schedulers on the
 * operations queue: exactly one job per tick however many workers run, and schedules survive
 * restarts because they live in Redis.
 *
 * Scheduler ids are `<teamId>-<kind>-<key>`, so everything of one workspace can be found and
 * removed by its prefix (uninstall), and everything of one kind of one Slack channel by its key.
 *
 * With queue shards (jobs/shards.ts) a schedule lives on its workspace's shard, so its ticks run
 * there like the workspace's other operations; reads and removals by id look at every shard.
 */
import type { Queue } from 'bullmq';
import { JOB_SCHEMAS, type JobInput, type Operation } from '../operations/schemas.ts';

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

/** The operations queue's shards (jobs/queue.ts). */
export interface ShardedQueues {
  readonly queues: readonly Queue[];
  queueFor(teamId: string): Queue;
}

export function createSchedules(shards: ShardedQueues): Schedules {
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

  /** Removes the schedule from whichever shard holds it. */
  async function removeOne(id: string): Promise<boolean> {
    let removed = false;
    for (const queue of shards.queues) if (await queue.removeJobScheduler(id)) removed = true;
    return removed;
  }

  return {
    async upsert(id, timing, operation, data) {
      const parsed = JOB_SCHEMAS[operation].parse(data);
      const teamId = 'origin' in parsed ? parsed.origin.teamId : parsed.teamId;
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
        if (schedule.id.startsWith(prefix) && (await removeOne(schedule.id))) removed++;
      }
      return removed;
    },
    async list(prefix = '') {
      return (await all()).filter((s) => s.id.startsWith(prefix));
    },
    async get(id) {
      for (const queue of shards.queues) {
        const found = await queue.getJobScheduler(id);
        if (found) return toInfo(found);
      }
      return undefined;
    },
  };
}
