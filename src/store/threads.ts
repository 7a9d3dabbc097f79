/**
 * Threads the bot made for DMs: one per set of members (so sending again to the same people
 * reuses it), and the Slack conversation each came from (for mirroring replies back).
 */

import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type KeySpace, keys } from './keys.ts';
import { storeScript } from './lua.ts';
import type { Redis } from './redis.ts';

export const ThreadOrigin = z.object({
  slackChannel: z.string(),
  threadTs: z.string().optional(),
  createdBy: z.string(),
  memberIds: z.array(z.string()),
});
export type ThreadOrigin = z.infer<typeof ThreadOrigin>;

const membersHash = (memberIds: string[]) =>
  createHash('sha256')
    .update([...new Set(memberIds)].sort().join('\n'))
    .digest('hex')
    .slice(0, 32);

/** Takes a thread's pairing with its members only while it is still that thread's (lua/threadForget.lua). */
const FORGET_SCRIPT = storeScript('threadForget');

export function threadStore(redis: Redis, space: KeySpace) {
  return {
    async threadFor(teamId: string, memberIds: string[]): Promise<string | undefined> {
      return (await redis.get(keys(space, teamId).dmThread(membersHash(memberIds)))) ?? undefined;
    },
    async remember(teamId: string, threadId: string, origin: ThreadOrigin): Promise<void> {
      const k = keys(space, teamId);
      await redis
        .multi()
        .set(k.dmThread(membersHash(origin.memberIds)), threadId)
        .set(k.threadOrigin(threadId), JSON.stringify(origin))
        .exec();
    },
    /**
     * A thread gone from the service: its origin goes (its mirroring stops), and so does its
     * pairing with `memberIds` unless another thread has taken it since. Both keys are the
     * team's, so one script on a cluster too.
     */
    async forget(teamId: string, threadId: string, memberIds: string[]): Promise<void> {
      const k = keys(space, teamId);
      await redis.eval(
        FORGET_SCRIPT,
        2,
        k.dmThread(membersHash(memberIds)),
        k.threadOrigin(threadId),
        threadId,
      );
    },
    async origin(teamId: string, threadId: string): Promise<ThreadOrigin | undefined> {
      const raw = await redis.get(keys(space, teamId).threadOrigin(threadId));
      if (raw === null) return undefined;
      const parsed = ThreadOrigin.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : undefined;
    },
  };
}
export type ThreadStore = ReturnType<typeof threadStore>;
