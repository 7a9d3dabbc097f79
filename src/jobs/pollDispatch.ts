/**
 * The poll dispatcher: every worker process looks at the poll schedule (store/pollSchedule.ts)
 * once a tick and enqueues the polls that are due and that the host's request budget has room
 * for. Taking due pollers is one script, so several processes never take the same turn; a poll
 * still queued (waiting for the budget, or retrying) when it is due again is not enqueued twice
 * (BullMQ's deduplication, by the poller's id).
 *
 * Taken and enqueued are two steps: a process that stops between them loses that one poll, and
 * the poller polls at its next turn (polls carry watermarks, so nothing is missed, only later).
 */
import type { Logger } from '../logger.ts';
import type { DuePoll, PollSchedule } from '../store/pollSchedule.ts';
import { POLL_OPERATIONS, type Schedules, type ShardedQueues, teamOfScheduleId } from './schedules.ts';

/** How often each process looks for due polls (ms). */
export const POLL_DISPATCH_MS = 1000;
/** Polls one look takes at most per host. */
export const POLL_DISPATCH_BATCH = 500;

/** The deduplication id of a poller's jobs: one queued or running at a time. */
export const POLL_DEDUPLICATION = 'poll-';

/** BullMQ job options of a dispatched poll: retried like any operation, one at a time per poller. */
export function pollJob(poll: DuePoll) {
  return {
    name: poll.operation,
    data: poll.data,
    opts: {
      // Until it completes or fails, the poller's next turn adds nothing (BullMQ's deduplication).
      deduplication: { id: `${POLL_DEDUPLICATION}${poll.id}` },
      attempts: 4,
      backoff: { type: 'exponential', delay: 2000, jitter: 0.5 },
      removeOnComplete: { count: 100 },
      removeOnFail: { count: 100 },
    },
  };
}

/**
 * Takes the due polls of every host and enqueues each on its workspace's shard (so a poller's
 * deduplication id always meets itself on one queue); answers how many.
 */
export async function dispatchPolls(
  schedule: PollSchedule,
  shards: ShardedQueues,
  now: number,
): Promise<number> {
  let enqueued = 0;
  for (const host of await schedule.hosts()) {
    const { polls } = await schedule.dispatch(host, now, POLL_DISPATCH_BATCH);
    if (polls.length === 0) continue;
    const byShard = new Map<ShardedQueues['queues'][number], DuePoll[]>();
    for (const poll of polls) {
      const queue = shards.queueFor(teamOfScheduleId(poll.id));
      byShard.set(queue, [...(byShard.get(queue) ?? []), poll]);
    }
    for (const [queue, due] of byShard) await queue.addBulk(due.map(pollJob));
    enqueued += polls.length;
  }
  return enqueued;
}

/**
 * Feeds and threads scheduled as BullMQ job schedulers (before polls had their schedule) move to
 * the poll schedule, with their interval and data; answers how many. Run at every worker start:
 * a scheduler left would poll at its own pace, outside the stretch.
 */
export async function movePollSchedulers(shards: ShardedQueues, schedules: Schedules): Promise<number> {
  const found: { id: string; operation: 'pollFeed' | 'pollThread'; every: number; data: unknown }[] = [];
  const page = 500;
  for (const queue of shards.queues)
    for (let start = 0; ; start += page) {
      const schedulers = await queue.getJobSchedulers(start, start + page - 1, true);
      for (const s of schedulers) {
        if (!POLL_OPERATIONS.has(s.name) || s.every === undefined || s.every === null) continue;
        found.push({
          id: s.id ?? s.key,
          operation: s.name as 'pollFeed' | 'pollThread',
          every: Number(s.every),
          data: s.template?.data,
        });
      }
      if (schedulers.length < page) break;
    }
  let moved = 0;
  for (const s of found) {
    // upsert validates the data, adds the poller, then removes the job scheduler of that id.
    await schedules.upsert(s.id, { everyMs: s.every }, s.operation, s.data as never);
    moved++;
  }
  return moved;
}

export interface PollDispatcher {
  /** looks now (a poller was just added or changed) */
  wake(): void;
  stop(): Promise<void>;
}

export function startPollDispatch(deps: {
  schedule: PollSchedule;
  queues: ShardedQueues;
  schedules: Schedules;
  logger: Logger;
  everyMs?: number;
  now?: () => number;
}): PollDispatcher {
  const now = deps.now ?? Date.now;
  const everyMs = deps.everyMs ?? POLL_DISPATCH_MS;
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  const look = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    running = dispatchPolls(deps.schedule, deps.queues, now())
      .then(
        () => undefined,
        (error: unknown) => deps.logger.warn({ err: error }, 'poll dispatch failed; trying again'),
      )
      .finally(() => {
        running = undefined;
        if (stopped) return;
        if (again) {
          again = false;
          look();
          return;
        }
        timer = setTimeout(look, everyMs);
        timer.unref();
      });
  };
  running = movePollSchedulers(deps.queues, deps.schedules)
    .then(
      (moved) => {
        if (moved > 0) deps.logger.info({ moved }, 'poll schedulers moved to the poll schedule');
      },
      (error: unknown) =>
        deps.logger.warn({ err: error }, 'could not move poll schedulers; next start tries again'),
    )
    .finally(() => {
      running = undefined;
      look();
    });

  return {
    wake: look,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
