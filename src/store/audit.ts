/** Who changed which setting when: a capped list per team, newest first, shown on App Home. */
import { z } from 'zod';
import { cappedList } from './cappedList.ts';
import { type KeySpace, keys } from './keys.ts';
import type { Redis } from './redis.ts';

export const AUDIT_CAP = 100;

export const AuditEntry = z.object({
  at: z.string(),
  userId: z.string(),
  /** e.g. `connect`, `disconnect`, `link`, `unlink` */
  action: z.string(),
  /** words for people; never a secret */
  detail: z.string().optional(),
  /** the Slack channel the change concerns */
  slackChannel: z.string().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export function auditStore(redis: Redis, space: KeySpace) {
  const list = cappedList(redis, AuditEntry, { cap: AUDIT_CAP });
  return {
    async record(teamId: string, entry: Omit<AuditEntry, 'at'> & { at?: string }): Promise<void> {
      await list.push(keys(space, teamId).audit(), { at: entry.at ?? new Date().toISOString(), ...entry });
    },
    recent(teamId: string, count = 10): Promise<AuditEntry[]> {
      return list.newest(keys(space, teamId).audit(), count);
    },
  };
}
export type AuditStore = ReturnType<typeof auditStore>;
