/**
 * Paging state of a list shown in Slack. Cursors are opaque and may be long, and a button value
 * holds 2,000 characters at most, so the list's query and cursors live here and the Next /
 * Previous buttons carry only a short id.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { type KeySpace, keys } from './keys.ts';
import type { Redis } from './redis.ts';

/** Lists stay pageable for a day. */
const TTL_SECONDS = 24 * 3600;

export const PageState = z.object({
  /** the operation that renders the list: listPosts, listChannels, listMembers, listMessages */
  operation: z.enum(['listPosts', 'listChannels', 'listMembers', 'listMessages']),
  /** the list's query, as that operation's job takes it (without origin and paging) */
  query: z.record(z.string(), z.unknown()),
  /** `''`: the first page */
  cursor: z.string(),
  direction: z.enum(['next', 'prev']),
  /** the forward cursors of the pages before the one this state leads to (`''` the first page) */
  trail: z.array(z.string()).optional(),
});
export type PageState = z.infer<typeof PageState>;

export function pageStore(redis: Redis, space: KeySpace) {
  return {
    async save(teamId: string, state: PageState): Promise<string> {
      const id = randomBytes(9).toString('base64url');
      await redis.set(keys(space, teamId).pageState(id), JSON.stringify(state), 'EX', TTL_SECONDS);
      return id;
    },
    async load(teamId: string, id: string): Promise<PageState | undefined> {
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) return undefined;
      const raw = await redis.get(keys(space, teamId).pageState(id));
      if (raw === null) return undefined;
      const parsed = PageState.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : undefined;
    },
  };
}
export type PageStore = ReturnType<typeof pageStore>;
