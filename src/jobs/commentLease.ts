/**
 * One comment of the app at a time on a post, from the count it is measured against until it is
 * known to have landed or not.
 *
 * The spec has no way to list a post's comments, so a comment whose answer was lost is recovered
 * by the post's `comments_count`: grown since just before the send → landed. Another comment of
 * this app on the same post in that window would be taken for it (the person's comment then
 * never posted, yet told "added"). The lease closes that window for the app's own comments: a job
 * holds it (by job id) while its comment is measured, sent and possibly in doubt — across its
 * retries — and another comment on the post waits. A holder whose job has finished (completed,
 * failed, gone) holds nothing: its lease is taken over. Comments made in the service by people
 * directly remain a known limit (RELIABILITY.md).
 *
 * A job that stalled out is failed in BullMQ's eyes, yet may run once more to finish
 * (stalledRerun.ts), recovering its comment by the count: until its failure is told it still
 * holds the post. Found by the fault suite (seed 685620466): another comment landed on the post
 * in that gap, and the rerun took it for its own.
 */

import { STALLED_OUT } from '../engine/stalledSweep.ts';
import { type KeySpace, keys, queueKeys } from '../store/keys.ts';
import type { ProcessorContext } from './context.ts';
import { WaitTurnError } from './errors.ts';

/** Long enough to outlive a comment's retries; taken over at once when its job has finished. */
const LEASE_MS = 30 * 60_000;

/**
 * Takes the lease for ARGV[1] when it is free, already this job's, or held by a job that has
 * finished (its hash gone, or `finishedOn` set: completed or failed for good — but a job failed
 * for stalling, ARGV[4], is finished only once its log says its failure was told). ARGV[3] is the
 * queue's key prefix, so the holder's job hash is ARGV[3] .. holder. The log is the job's progress
 * (steps.ts), JSON as BullMQ keeps it.
 */
const TAKE_SCRIPT = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then
  local job = ARGV[3] .. holder
  if redis.call('EXISTS', job) == 1 then
    if not redis.call('HGET', job, 'finishedOn') then return 0 end
    if redis.call('HGET', job, 'failedReason') == ARGV[4] then
      local log = redis.call('HGET', job, 'progress') or ''
      if not string.find(log, '"failedTold":true', 1, true) then return 0 end
    end
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface CommentLease {
  /** takes the lease for this job, or throws WaitTurnError */
  take(): Promise<void>;
  release(): Promise<void>;
}

export function commentLease(ctx: ProcessorContext, postId: string): CommentLease {
  const redis = ctx.store.redis;
  // `prefix:operations`: the queue's qualified name, the holder's job hash is under it.
  const queueKey = ctx.job.queueQualifiedName;
  const key = commentLeaseKey(ctx.store.space, queueKey, ctx.teamId, postId);
  const me = String(ctx.job.id);
  return {
    async take() {
      const taken = await redis.eval(TAKE_SCRIPT, 1, key, me, String(LEASE_MS), `${queueKey}:`, STALLED_OUT);
      if (taken !== 1) throw new WaitTurnError(200 + Math.floor(Math.random() * 300));
    },
    async release() {
      await redis.eval(RELEASE_SCRIPT, 1, key, me);
    },
  };
}

/**
 * The lease of a post's comments. The script reads the lease and the holder's job hash: on a
 * cluster both must be in the queue shard's slot (a workspace's jobs are all on one shard, so its
 * leases are too).
 */
export function commentLeaseKey(space: KeySpace, queueKey: string, teamId: string, postId: string): string {
  return space.hashTags
    ? queueKeys(queueKey).commentLease(teamId, postId)
    : keys(space, teamId).commentLease(postId);
}
