/**
 * One comment of the app at a time on a post, while one is measured, sent and possibly in doubt.
 * A comment whose answer was lost is recovered by the post's `comments_count` (the spec lists no
 * comments), so another comment of the app landing meanwhile would be taken for it. The post's
 * engine lease (engine/jobLease.ts) closes that window; comments people make in the service
 * directly remain a known limit (RELIABILITY.md).
 */
import { type JobLease, jobLease } from '../engine/index.ts';
import { type KeySpace, keys, queueKeys } from '../store/keys.ts';
import type { ProcessorContext } from './context.ts';

/** Long enough to outlive a comment's retries; taken over at once when its job has finished. */
const LEASE_MS = 30 * 60_000;

export function commentLease(ctx: ProcessorContext, postId: string): JobLease {
  const key = commentLeaseKey(ctx.store.space, ctx.job.queueQualifiedName, ctx.teamId, postId);
  return jobLease(ctx.store.redis, key, ctx.job, LEASE_MS, 'another comment on the same post is being sent');
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
