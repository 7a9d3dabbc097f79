/**
 * Everything the engine relies on of BullMQ's own Redis layout, in one file: where a queue keeps
 * a job's hash and lock, its failed and completed jobs and a job's deduplication key, which
 * fields of the hash are read and written, and the reason BullMQ gives a job that stalled out.
 * The engine's scripts (engine/lua/, store/lua/) name none of these: they are handed in as KEYS
 * and ARGV from here.
 *
 * BullMQ does not promise any of it. It holds for the version package.json pins, and
 * test/engine/bullmqLayout.test.ts fails when BullMQ moves one of them: an upgrade is made on
 * purpose, with that test and the fault suite deciding (docs/engine.md, "Upgrading BullMQ").
 */

/** BullMQ's reason for a job whose runs stopped more often than its `maxStalledCount`. */
export const STALLED_OUT = 'job stalled more than allowable limit';

/** The fields of a job's hash the engine reads or writes. */
export const JOB_FIELDS = {
  /** the job's progress, where the engine keeps its step log (JSON, as `job.progress` reads it) */
  progress: 'progress',
  /** why the job failed: BullMQ's text, or the message of the error that failed it */
  failedReason: 'failedReason',
  /** when it completed or failed for good; absent while it may still run */
  finishedOn: 'finishedOn',
} as const;

/** BullMQ's `<prefix>:<queue>`: the start of every key of a queue (its `qualifiedName`). */
export function queueKeyOf(prefix: string, queueName: string): string {
  return `${prefix}:${queueName}`;
}

/** Where BullMQ keeps a queue's jobs, `queueKey` being the queue's `qualifiedName`. */
export function queueLayout(queueKey: string) {
  const jobPrefix = `${queueKey}:`;
  return {
    /** what a job's id follows in the key of its hash (a script builds `jobPrefix .. id`) */
    jobPrefix,
    /** a job's hash */
    job: (id: string) => `${jobPrefix}${id}`,
    /** a job's lock: a string holding its run's token while a run holds the job */
    lock: (jobKey: string) => `${jobKey}:lock`,
    /** the ids of failed jobs, scored by when they failed (a sorted set) */
    failed: `${queueKey}:failed`,
    /** the ids of completed jobs, scored by when they completed (a sorted set) */
    completed: `${queueKey}:completed`,
    /**
     * The key a deduplication id holds while it lasts (a string, with the ttl it was added with):
     * no other job with that id is added. BullMQ deletes it only when the job is removed, not
     * when it finishes or is trimmed, so a longer ttl holds it longer.
     */
    deduplication: (id: string) => `${queueKey}:de:${id}`,
  };
}
