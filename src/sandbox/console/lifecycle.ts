/**
 * Channels that come and go, by hand in the console: Slack's own commands `/archive`,
 * `/unarchive`, `/remove @Collab` (or `/kick`), `/invite @Collab` and `/delete-channel` change the
 * stand-in's channel as Slack would, then the console sends the event Slack sends
 * (`channel_archive`, `channel_unarchive`, `member_left_channel`, `member_joined_channel`,
 * `channel_deleted`), signed, to the bot.
 */
import type { ChannelChange, SlackStandIn } from '../slack/types.ts';

export interface LifecycleCommand {
  /** the change of the stand-in's channel */
  change: ChannelChange;
  /** the event Slack sends for it */
  event: (input: {
    channel: string;
    user: string;
    botUserId: string;
    teamId: string;
  }) => Record<string, unknown>;
  /** what the console says in the channel */
  said: string;
}

const BOT_MENTION = /^(?:<@[^>]+>|@?collab)$/i;

export const LIFECYCLE_COMMANDS: Record<string, LifecycleCommand> = {
  '/archive': {
    change: { archived: true },
    event: ({ channel, user }) => ({ type: 'channel_archive', channel, user }),
    said: 'archived this channel. Feeds and digests of an archived channel are paused.',
  },
  '/unarchive': {
    change: { archived: false },
    event: ({ channel, user }) => ({ type: 'channel_unarchive', channel, user }),
    said: 'unarchived this channel.',
  },
  '/delete-channel': {
    change: { deleted: true },
    event: ({ channel }) => ({ type: 'channel_deleted', channel }),
    said: 'deleted this channel.',
  },
  '/remove': {
    change: { member: false },
    event: ({ channel, botUserId, teamId }) => ({
      type: 'member_left_channel',
      user: botUserId,
      channel,
      channel_type: 'C',
      team: teamId,
    }),
    said: 'removed Collab from this channel.',
  },
  '/invite': {
    change: { member: true },
    event: ({ channel, user, botUserId, teamId }) => ({
      type: 'member_joined_channel',
      user: botUserId,
      channel,
      channel_type: 'C',
      team: teamId,
      inviter: user,
    }),
    said: 'added Collab to this channel.',
  },
};
LIFECYCLE_COMMANDS['/kick'] = LIFECYCLE_COMMANDS['/remove']!;

/** The lifecycle command `command text` names, if it is one (`/remove` and `/invite` name the bot). */
export function lifecycleCommand(command: string, text: string): LifecycleCommand | undefined {
  const found = Object.hasOwn(LIFECYCLE_COMMANDS, command) ? LIFECYCLE_COMMANDS[command] : undefined;
  if (found === undefined) return undefined;
  if (found.change.member !== undefined && !BOT_MENTION.test(text.trim())) return undefined;
  return found;
}

/** Changes the stand-in's channel; answers the event to send. */
export function applyLifecycle(
  slack: SlackStandIn,
  command: LifecycleCommand,
  input: { channel: string; user: string; botUserId: string; teamId: string },
): Record<string, unknown> {
  slack.changeChannel(input.channel, command.change);
  return command.event(input);
}
