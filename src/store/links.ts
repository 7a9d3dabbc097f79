/** Which collaboration channel a Slack channel is linked to, and whether its thread replies become comments. */
import { z } from 'zod';
import { type KeySpace, keys } from './keys.ts';
import type { Redis } from './redis.ts';

export const ChannelLink = z.object({
  channelId: z.string(),
  channelName: z.string(),
  bridgeReplies: z.boolean(),
  linkedBy: z.string(),
  linkedAt: z.string(),
});
export type ChannelLink = z.infer<typeof ChannelLink>;

export function linkStore(redis: Redis, space: KeySpace) {
  return {
    async get(teamId: string, slackChannel: string): Promise<ChannelLink | undefined> {
      const raw = await redis.get(keys(space, teamId).link(slackChannel));
      if (raw === null) return undefined;
      const parsed = ChannelLink.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : undefined;
    },
    async set(teamId: string, slackChannel: string, link: ChannelLink): Promise<void> {
      const k = keys(space, teamId);
      await redis
        .multi()
        .set(k.link(slackChannel), JSON.stringify(link))
        .sadd(k.links(), slackChannel)
        .exec();
    },
    /** Removes the link; answers the link that was removed, if any. */
    async remove(teamId: string, slackChannel: string): Promise<ChannelLink | undefined> {
      const k = keys(space, teamId);
      const raw = await redis.get(k.link(slackChannel));
      await redis.multi().del(k.link(slackChannel)).srem(k.links(), slackChannel).exec();
      if (raw === null) return undefined;
      const parsed = ChannelLink.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : undefined;
    },
    async list(teamId: string): Promise<Array<{ slackChannel: string; link: ChannelLink }>> {
      const k = keys(space, teamId);
      const slackChannels = (await redis.smembers(k.links())).sort();
      const out: Array<{ slackChannel: string; link: ChannelLink }> = [];
      for (const slackChannel of slackChannels) {
        const link = await this.get(teamId, slackChannel);
        if (link) out.push({ slackChannel, link });
      }
      return out;
    },
  };
}
export type LinkStore = ReturnType<typeof linkStore>;
