/**
 * A slash command's outcome, told once its job has completed: the telling's mark leaves in one
 * write with BullMQ's completion of the job, the outcome kept in the shard's index of pending
 * tellings until it is confirmed told, and every worker's sweep tells what a worker that stopped
 * left there. Elsewhere (a cluster, a run without a lock) `tell` tells inside the run
 * (docs/engine.md, "Telling once").
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Job } from 'bullmq';
import type { Logger } from '../logger.ts';
import type { Origin } from '../operations/schemas.ts';
import { CONFIRM_BATCH, type JobFence, type PendingTelling } from '../store/fence.ts';
import { corkTurn, type Redis } from '../store/redis.ts';
import type { Outcomes, SlackMessage } from './delivery.ts';
import { tellingStore } from './pendingTellings.ts';
import type { FinalTelling } from './tell.ts';

export interface TellingsOptions {
  /** BullMQ's connection of the worker: the mark must leave on it, before the completion */
  connection: Redis;
  /** BullMQ's `<prefix>:<queue>` of the shard */
  queueKey: string;
  /** how long a telling is left to its worker before a sweep tells it again */
  graceMs: number;
  /** how often to sweep */
  everyMs: number;
  /** how the person of a claimed telling is reached (undefined: the workspace is gone) */
  outcomesOf: (teamId: string) => Promise<Outcomes | undefined>;
  logger: Logger;
  now: () => number;
}

/** How long confirmations wait for a mark to ride on before they are written on their own. */
const CONFIRM_WAIT_MS = 100;
/** How many due tellings one sweep claims. */
const SWEEP_PAGE = 100;
/** Past this many marked tellings, those of jobs that never completed (their run lost the job) are let go. */
const MARKED_MAX = 10_000;

export interface Tellings {
  /**
   * Sends the run's mark with `telling` kept pending, corked so that the job's completion (sent
   * by BullMQ when the processor returns) leaves in the same write.
   */
  mark(job: Job, fence: JobFence, telling: FinalTelling): void;
  /** The job completed: its telling is told now. */
  completed(job: Job): void;
  /** Resolves once the telling marked for this job (if any, in this process) is told. */
  told(jobId: string): Promise<void>;
  /** Tellings under way told and confirmations written (a worker closing). */
  drain(): Promise<void>;
  stop(): void;
}

interface Marked {
  telling: FinalTelling;
  /** the mark's answer: false when the lock was not the run's; the error when it failed */
  held: Promise<boolean | Error>;
  /** when it was marked */
  at: number;
}

export function createTellings(options: TellingsOptions): Tellings {
  const { connection, logger, now } = options;
  const store = tellingStore(connection, options.queueKey);
  /** marked tellings by job id, until told */
  const marked = new Map<string, Marked>();
  /** who waits for a marked telling to be told (told()) */
  const waiting = new Map<string, Array<() => void>>();
  /** jobs whose outcome this process is telling now */
  const beingTold = new Set<string>();
  const underWay = new Set<Promise<void>>();

  function letGo(jobId: string): void {
    marked.delete(jobId);
    for (const wake of waiting.get(jobId) ?? []) wake();
    waiting.delete(jobId);
  }
  /** told, waiting to be taken out of the index by the next write */
  const confirmed: string[] = [];
  let confirmTimer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  /** Confirmations for the next mark to carry (at most a batch). */
  function takeConfirmed(): string[] {
    return confirmed.length <= CONFIRM_BATCH ? confirmed.splice(0) : confirmed.splice(0, CONFIRM_BATCH);
  }

  /** Written on their own when no mark has carried them for a while (the worker idles). */
  function writeConfirmed(): Promise<void> {
    confirmTimer = undefined;
    const ids = takeConfirmed();
    if (ids.length === 0) return writing;
    writing = store.confirm(ids).catch((error: unknown) => {
      // Left in the index: a sweep tells them again, replacing the same note.
      logger.warn({ err: error, count: ids.length }, 'could not confirm told outcomes');
    });
    if (confirmed.length > 0) scheduleConfirm();
    return writing;
  }

  function scheduleConfirm(): void {
    confirmTimer ??= setTimeout(() => void writeConfirmed(), CONFIRM_WAIT_MS);
    confirmTimer.unref();
  }

  /** Never throws: whatever fails is logged, and the person is told all the same. */
  async function tellCompleted(jobId: string, entry: Marked): Promise<void> {
    const { rider, first, deliver } = entry.telling;
    beingTold.add(jobId);
    try {
      // The completion ran after the mark on one connection: the mark held, unless it failed —
      // then the look-up riding on it is made alone, and the outcome told all the same.
      const held = await entry.held;
      if (held instanceof Error) {
        logger.warn({ err: held, jobId }, "the telling's mark failed; telling the completed job's outcome");
      }
      if (held !== true) await rider?.alone();
      await first?.();
    } catch (error) {
      // The cards stay as they were; the person still hears the outcome.
      logger.warn({ err: error, jobId }, 'could not update what shows the outcome before telling it');
    }
    try {
      await deliver();
    } catch (error) {
      logger.warn({ err: error, jobId }, 'telling the outcome failed');
    } finally {
      beingTold.delete(jobId);
      confirmed.push(jobId);
      scheduleConfirm();
    }
  }

  // A worker still telling after a third of the grace period says so, each third.
  const heartbeat = setInterval(
    () => {
      if (beingTold.size === 0) return;
      store.stillTelling([...beingTold], now()).catch((error: unknown) => {
        logger.warn({ err: error }, 'could not say the outcomes under way are still being told');
      });
    },
    Math.max(100, Math.floor(options.graceMs / 3)),
  );
  heartbeat.unref();

  let sweeping: Promise<void> | undefined;
  async function sweepOnce(): Promise<void> {
    const claimed = await store.claimDue(now() - options.graceMs, SWEEP_PAGE, now());
    for (const [jobId, raw] of claimed) {
      try {
        const { origin, message } = JSON.parse(raw) as { origin: Origin; message: SlackMessage };
        const outcomes = await options.outcomesOf(origin.teamId);
        if (!outcomes) continue;
        await outcomes.deliver(origin, message, { replaceOriginal: true });
        logger.info({ jobId }, 'told the outcome of a job whose worker stopped before telling it');
      } catch (error) {
        logger.warn({ err: error, jobId }, 'could not tell the outcome of a completed job again');
      }
    }
  }
  const sweeper = setInterval(() => {
    // One sweep at a time: the next tick finds the last still under way and leaves it.
    if (sweeping) return;
    sweeping = sweepOnce()
      .catch((error: unknown) => logger.warn({ err: error }, 'the sweep of untold outcomes failed'))
      .finally(() => {
        sweeping = undefined;
      });
  }, options.everyMs);
  sweeper.unref();

  return {
    mark(job, fence, finalTelling) {
      // BullMQ's completion, sent as the processor returns, leaves in the same write; the order
      // on the connection is the order they run in.
      corkTurn(connection);
      const pending: PendingTelling = {
        ...store.where,
        jobId: job.id ?? '',
        at: String(now()),
        telling: JSON.stringify({ origin: finalTelling.origin, message: finalTelling.message }),
        confirmed: takeConfirmed(),
      };
      const withPending = { ...fence, pending };
      const held = (
        finalTelling.rider ? finalTelling.rider.withMark(withPending, connection) : store.mark(fence, pending)
      ).then(
        (ok) => {
          // Nothing was written: the confirmations wait for the next write.
          if (!ok) confirmed.push(...pending.confirmed);
          return ok;
        },
        (error: unknown) => {
          confirmed.push(...pending.confirmed);
          return error instanceof Error ? error : new Error(String(error));
        },
      );
      if (marked.size >= MARKED_MAX) {
        for (const [id, entry] of marked) if (entry.at < now() - options.graceMs) letGo(id);
      }
      marked.set(pending.jobId, { telling: finalTelling, held, at: now() });
    },
    completed(job) {
      const jobId = job.id ?? '';
      const entry = marked.get(jobId);
      if (!entry) return;
      const done = tellCompleted(jobId, entry);
      underWay.add(done);
      void done.then(() => {
        underWay.delete(done);
        letGo(jobId);
      });
    },
    told(jobId) {
      if (!marked.has(jobId)) return Promise.resolve();
      return new Promise((wake) => {
        const waiters = waiting.get(jobId) ?? [];
        waiters.push(wake);
        waiting.set(jobId, waiters);
      });
    },
    async drain() {
      while (underWay.size > 0) await Promise.all(underWay);
      if (confirmTimer) clearTimeout(confirmTimer);
      while (confirmed.length > 0) await writeConfirmed();
      await writing;
    },
    stop() {
      clearInterval(heartbeat);
      clearInterval(sweeper);
    },
  };
}

/**
 * A run whose telling finds its earlier mark (a run before it stopped while telling): waits out
 * that telling's send, as the step log waits before a step in doubt (steps.ts). Answers false when
 * the earlier run told it through (nothing left to tell).
 */
export async function earlierTelling(
  step: { started?: boolean; done?: boolean; until?: number } | undefined,
  now: () => number,
  sendWindowMs: number,
): Promise<boolean> {
  if (step?.done) return false;
  const wait = (step?.until ?? 0) - now();
  if (step?.started && wait > 0) await delay(Math.min(wait, sendWindowMs));
  return true;
}
