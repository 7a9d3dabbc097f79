/**
 * Workflow Builder steps waiting for a post's resolution: which post, until when, and the
 * execution's token to complete the step with (Slack issues it for this execution alone). The
 * record expires a day after the longest wait.
 */
import { z } from 'zod';
import { type KeySpace, keys } from './keys.ts';
import type { Redis } from './redis.ts';

export const WorkflowWait = z.object({
  postId: z.string(),
  token: z.string(),
  /** epoch ms: past it the step fails, saying it waited too long */
  deadline: z.number(),
});
export type WorkflowWait = z.infer<typeof WorkflowWait>;

export function workflowWaitStore(redis: Redis, space: KeySpace) {
  const key = (teamId: string, executionId: string) => keys(space, teamId).workflowWait(executionId);
  return {
    async get(teamId: string, executionId: string): Promise<WorkflowWait | undefined> {
      const raw = await redis.get(key(teamId, executionId));
      if (raw === null) return undefined;
      try {
        const parsed = WorkflowWait.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
    async set(teamId: string, executionId: string, wait: WorkflowWait): Promise<void> {
      const ttl = Math.max(60, Math.ceil((wait.deadline - Date.now()) / 1000) + 86_400);
      await redis.set(key(teamId, executionId), JSON.stringify(wait), 'EX', ttl);
    },
    async remove(teamId: string, executionId: string): Promise<void> {
      await redis.del(key(teamId, executionId));
    },
  };
}
export type WorkflowWaitStore = ReturnType<typeof workflowWaitStore>;
