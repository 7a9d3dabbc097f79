/** Who changed which setting when: a capped list per team, newest first, shown on App Home. */
import { z } from 'zod';
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
  return {
    async record(teamId: string, entry: Omit<AuditEntry, 'at'> & { at?: string }): Promise<void> {
      const k = keys(space, teamId).audit();
      const full: AuditEntry = { at: entry.at ?? new Date().toISOString(), ...entry };
      await redis
        .multi()
        .lpush(k, JSON.stringify(full))
        .ltrim(k, 0, AUDIT_CAP - 1)
        .exec();
    },
    async recent(teamId: string, count = 10): Promise<AuditEntry[]> {
      const raw = await redis.lrange(keys(space, teamId).audit(), 0, Math.max(0, count - 1));
      return raw.flatMap((line) => {
        try {
          const parsed = AuditEntry.safeParse(JSON.parse(line));
          return parsed.success ? [parsed.data] : [];
        } catch {
          return [];
        }
      });
    },
  };
}
export type AuditStore = ReturnType<typeof auditStore>;
