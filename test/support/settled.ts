/**
 * Waiting on jobs through the queue's own events (`QueueEvents`), never on time: a job by id, or
 * the next job of an operation, to complete or fail; the job an idempotency key was queued as.
 */
import type { Job, Queue, QueueEvents } from 'bullmq';

export type SettledState = 'completed' | 'failed';

/**
 * After a job completed, resolves once its outcome is told (a slash command's is told after
 * completion: engine/tellAfterCompletion.ts): the workers' `outcomeTold`.
 */
export type OutcomeTold = (jobId: string) => Promise<unknown>;

/**
 * Resolves when the job with this id completes or fails (also if it already had), with its final
 * state — once its outcome is told (`told`).
 */
export async function settled(
  queueEvents: QueueEvents,
  queue: Queue,
  jobId: string,
  told?: OutcomeTold,
): Promise<SettledState> {
  const state = await settledState(queueEvents, queue, jobId);
  if (state === 'completed') await told?.(jobId);
  return state;
}

function settledState(queueEvents: QueueEvents, queue: Queue, jobId: string): Promise<SettledState> {
  return new Promise((resolve) => {
    const onCompleted = ({ jobId: id }: { jobId: string }) => id === jobId && done('completed');
    const onFailed = ({ jobId: id }: { jobId: string }) => id === jobId && done('failed');
    const done = (state: SettledState) => {
      queueEvents.off('completed', onCompleted);
      queueEvents.off('failed', onFailed);
      resolve(state);
    };
    queueEvents.on('completed', onCompleted);
    queueEvents.on('failed', onFailed);
    // The job may have settled before we listened.
    void queue.getJob(jobId).then(async (job) => {
      if (!job) return;
      const state = await job.getState();
      if (state === 'completed' || state === 'failed') done(state);
    });
  });
}

/** Resolves when the next job of this operation (and `where`, when given) completes or fails. */
export async function nextSettled(
  queueEvents: QueueEvents,
  queue: Queue,
  operation: string,
  where: (job: Job) => boolean = () => true,
  told?: OutcomeTold,
): Promise<{ job: Job; state: SettledState }> {
  const next = await nextSettledState(queueEvents, queue, operation, where);
  if (next.state === 'completed' && next.job.id) await told?.(next.job.id);
  return next;
}

function nextSettledState(
  queueEvents: QueueEvents,
  queue: Queue,
  operation: string,
  where: (job: Job) => boolean,
): Promise<{ job: Job; state: SettledState }> {
  return new Promise((resolve) => {
    const check = async ({ jobId }: { jobId: string }, state: SettledState) => {
      const job = await queue.getJob(jobId);
      if (job?.name !== operation || !where(job)) return;
      queueEvents.off('completed', onCompleted);
      queueEvents.off('failed', onFailed);
      resolve({ job, state });
    };
    const onCompleted = (e: { jobId: string }) => void check(e, 'completed');
    const onFailed = (e: { jobId: string }) => void check(e, 'failed');
    queueEvents.on('completed', onCompleted);
    queueEvents.on('failed', onFailed);
  });
}

/**
 * Resolves with the id of the job an idempotency key was queued as (`lookup`: the queue's
 * `jobIdOf`), once it is queued: the key and its job are written by one script, so a look after
 * each `added` event (and one now, if it was added before we listened) finds it.
 */
export function queuedAs(
  queueEvents: QueueEvents,
  lookup: () => Promise<string | undefined>,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () =>
      lookup().then((jobId) => {
        if (jobId === undefined) return;
        queueEvents.off('added', check);
        resolve(jobId);
      }, reject);
    queueEvents.on('added', check);
    void check();
  });
}
