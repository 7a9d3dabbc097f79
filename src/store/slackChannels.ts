/**
 * Slack channels that come and go: a channel archived, deleted, or that the bot was removed from
 * has its feed and digests paused (their records kept, their schedulers removed) until it is
 * unarchived or the bot is invited back. The latest change wins: each state carries the instant
 * of the change that set it, and an older change arriving late (events are not ordered) is ignored.
 */

import { z } from 'zod';
import { type KeySpace, keys } from './keys.ts';
import { storeScript } from './lua.ts';
import type { Redis } from './redis.ts';

/** Why a Slack channel's feed and digests are paused. */
export const PauseReason = z.enum(['archived', 'deleted', 'removed']);
export type PauseReason = z.infer<typeof PauseReason>;

export const SlackChannelState = z.object({
  paused: z.boolean(),
  /** the reason of the last pause (kept after a resume, for the record) */
  reason: PauseReason.optional(),
  /** epoch ms of the change that set this state */
  at: z.number(),
});
export type SlackChannelState = z.infer<typeof SlackChannelState>;

/** Sets the state when it is newer than the one stored, or none is (lua/slackChannelRecord.lua). */
const NEWER_SCRIPT = storeScript('slackChannelRecord');

function read(raw: string | null | undefined): SlackChannelState | undefined {
  if (raw === null || raw === undefined) return undefined;
  try {
    const parsed = SlackChannelState.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function slackChannelStore(redis: Redis, space: KeySpace) {
  const key = (teamId: string) => keys(space, teamId).slackChannelStates();
  return {
    async get(teamId: string, slackChannel: string): Promise<SlackChannelState | undefined> {
      return read(await redis.hget(key(teamId), slackChannel));
    },
    async isPaused(teamId: string, slackChannel: string): Promise<boolean> {
      return (await this.get(teamId, slackChannel))?.paused === true;
    },
    /** Records a change unless a newer one is recorded already; answers whether it was recorded. */
    async record(teamId: string, slackChannel: string, state: SlackChannelState): Promise<boolean> {
      const set = await redis.eval(
        NEWER_SCRIPT,
        1,
        key(teamId),
        slackChannel,
        JSON.stringify(state),
        String(state.at),
      );
      return Number(set) === 1;
    },
    /** The paused Slack channels of a team, by id. */
    async paused(teamId: string): Promise<Array<{ slackChannel: string; state: SlackChannelState }>> {
      const all = await redis.hgetall(key(teamId));
      return Object.entries(all)
        .map(([slackChannel, raw]) => ({ slackChannel, state: read(raw) }))
        .filter((e): e is { slackChannel: string; state: SlackChannelState } => e.state?.paused === true)
        .sort((a, b) => a.slackChannel.localeCompare(b.slackChannel));
    },
  };
}
export type SlackChannelStore = ReturnType<typeof slackChannelStore>;
