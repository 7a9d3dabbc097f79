/** Forgetting a workspace: every key under its team prefix (links, cards, caches, claims, connection, installation, audit). */
import { type KeySpace, keys, teamPattern } from './keys.ts';
import type { Redis } from './redis.ts';

export function teamStore(redis: Redis, space: KeySpace) {
  return {
    /** Deletes every key of the team; answers how many were deleted. */
    async forget(teamId: string): Promise<number> {
      let deleted = await redis.unlink(keys(space, teamId).team);
      let cursor = '0';
      do {
        const [next, found] = await redis.scan(cursor, 'MATCH', teamPattern(space, teamId), 'COUNT', 500);
        cursor = next;
        if (found.length > 0) deleted += await redis.unlink(...found);
      } while (cursor !== '0');
      return deleted;
    },
  };
}
export type TeamStore = ReturnType<typeof teamStore>;
