/** Forgetting a workspace: every key under its team prefix (links, cards, caches, claims, connection, installation, audit). */
import { type KeySpace, keys, teamPattern } from './keys.ts';
import { deleteKeys, type Redis } from './redis.ts';

export function teamStore(redis: Redis, space: KeySpace) {
  return {
    /** Deletes every key of the team; answers how many were deleted. */
    async forget(teamId: string): Promise<number> {
      const deleted = await redis.unlink(keys(space, teamId).team);
      return deleted + (await deleteKeys(redis, teamPattern(space, teamId)));
    },
  };
}
export type TeamStore = ReturnType<typeof teamStore>;
