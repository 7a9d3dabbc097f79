/**
 * The subcommands of this Slack channel's settings (admins only, audited): link it to a
 * collaboration channel, follow that channel's posts; and a person's own notifications.
 */
import type { PostFilters } from '../../../../collab/postFilters.ts';
import type { ChannelRef } from '../../../../operations/schemas.ts';
import { parseFilters } from '../filters.ts';
import { subcommand } from '../subcommand.ts';
import { channelRef } from '../words.ts';

export const link = subcommand<{ kind: 'link'; channel: ChannelRef; bridgeReplies: boolean }>({
  name: 'link',
  help: [
    {
      syntax: 'link #channel [with replies]',
      description:
        'link this Slack channel to a collaboration channel (replies in card threads become comments)',
      example: 'link #engineering with replies',
    },
  ],
  read(args) {
    const channel = args[0] ? channelRef(args[0]) : undefined;
    if (!channel) return 'Name the collaboration channel to link, with a #: `#engineering`.';
    const tail = args.slice(1).join(' ').toLowerCase();
    if (tail !== '' && !/^(with )?(replies|comments)$/.test(tail)) {
      return `I did not understand \`${args.slice(1).join(' ')}\`. Add \`with replies\` or nothing.`;
    }
    return { kind: 'link', channel, bridgeReplies: tail !== '' };
  },
  plan: {
    link: (command, origin) => ({
      operation: 'linkChannel',
      note: 'Linking this channel…',
      settings: 'link',
      data: { origin, channel: command.channel, bridgeReplies: command.bridgeReplies },
    }),
  },
});

export const unlink = subcommand<{ kind: 'unlink' }>({
  name: 'unlink',
  help: [{ syntax: 'unlink', description: 'remove the link' }],
  read: (args) =>
    args.length > 0
      ? '`unlink` takes nothing: it removes the link of this Slack channel.'
      : { kind: 'unlink' },
  plan: {
    unlink: (_, origin) => ({
      operation: 'unlinkChannel',
      note: 'Unlinking this channel…',
      settings: 'unlink',
      data: { origin },
    }),
  },
});

export const follow = subcommand<{ kind: 'follow'; filters?: PostFilters } | { kind: 'followList' }>({
  name: 'follow',
  help: [
    {
      syntax: 'follow [unresolved] [no-apps] [with "word"] [without "word"]',
      description:
        'post a card here for each new post of the linked channel, and update cards (with a note in their thread) when posts are resolved, reopened or commented. Filters: only unresolved posts, none by integrations, title or content with / without words. Run it again to change them (the feed keeps its place); `follow all` clears them',
      example: 'follow unresolved no-apps without "wip"',
    },
    { syntax: 'follow list', description: 'the followed channels and their filters' },
  ],
  read(args) {
    if (args.length === 0) return { kind: 'follow' };
    if (args.length === 1 && args[0]!.toLowerCase() === 'list') return { kind: 'followList' };
    const parsed = parseFilters(args.join(' '));
    return parsed.ok ? { kind: 'follow', filters: parsed.filters } : parsed.error;
  },
  plan: {
    follow: (command, origin) => ({
      operation: 'followChannel',
      note: 'Following the linked channel…',
      settings: 'follow',
      data: { origin, ...(command.filters ? { filters: command.filters } : {}) },
    }),
    followList: (_, origin) => ({
      operation: 'listFollows',
      note: 'Looking up followed channels…',
      data: { origin },
    }),
  },
});

export const notify = subcommand<{ kind: 'notify'; on: boolean }>({
  name: 'notify',
  help: [
    {
      syntax: 'notify on|off',
      description:
        'hear by DM when your posts (made from Slack, or written by you in the service) are commented on or resolved; quiet 22:00–08:00 in your time zone',
    },
  ],
  read(args) {
    const value = args.length === 1 ? args[0]!.toLowerCase() : '';
    if (value !== 'on' && value !== 'off') {
      return 'Say `notify on` to hear by DM when your posts are commented on or resolved, or `notify off`.';
    }
    return { kind: 'notify', on: value === 'on' };
  },
  plan: {
    notify: (command, origin) => ({
      operation: 'setNotify',
      note: command.on ? 'Turning your notifications on…' : 'Turning your notifications off…',
      data: { origin, on: command.on },
    }),
  },
});

export const unfollow = subcommand<{ kind: 'unfollow' }>({
  name: 'unfollow',
  help: [{ syntax: 'unfollow', description: 'stop following the linked channel' }],
  read: (args) =>
    args.length > 0 ? '`unfollow` takes nothing: this Slack channel stops following.' : { kind: 'unfollow' },
  plan: {
    unfollow: (_, origin) => ({
      operation: 'unfollowChannel',
      note: 'Unfollowing…',
      settings: 'unfollow',
      data: { origin },
    }),
  },
});
