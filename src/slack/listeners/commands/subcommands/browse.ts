/** The subcommands that list what the service holds: posts, channels, members. */
import { MEMBER_ROLES, type MemberRole } from '../../../../collab/schemas.ts';
import type { ChannelRef } from '../../../../operations/schemas.ts';
import { subcommand } from '../subcommand.ts';
import { channelRef, unescapeSlack } from '../words.ts';

export const posts = subcommand<{ kind: 'posts'; channel?: ChannelRef; unresolvedOnly: boolean }>({
  name: 'posts',
  help: [
    {
      syntax: 'posts [#channel] [unresolved]',
      description: 'list posts',
      example: 'posts #engineering unresolved',
    },
  ],
  read(args) {
    let channel: ChannelRef | undefined;
    let unresolvedOnly = false;
    for (const word of args) {
      const ref = channelRef(word);
      if (ref && !channel) channel = ref;
      else if (/^(unresolved|open)$/i.test(word)) unresolvedOnly = true;
      else return `I did not understand \`${word}\`.`;
    }
    return { kind: 'posts', ...(channel ? { channel } : {}), unresolvedOnly };
  },
  plan: {
    posts: (command, origin) => ({
      operation: 'listPosts',
      note: 'Looking up posts…',
      data: {
        origin,
        ...(command.channel ? { channel: command.channel } : {}),
        unresolvedOnly: command.unresolvedOnly,
      },
    }),
  },
});

export const channels = subcommand<{ kind: 'channels'; name?: string }>({
  name: 'channels',
  help: [{ syntax: 'channels [name]', description: 'list channels', example: 'channels eng' }],
  read(args) {
    const name = unescapeSlack(args.join(' ')).replace(/^#/, '').trim();
    return { kind: 'channels', ...(name ? { name } : {}) };
  },
  plan: {
    channels: (command, origin) => ({
      operation: 'listChannels',
      note: 'Looking up channels…',
      data: { origin, ...(command.name ? { name: command.name } : {}) },
    }),
  },
});

export const members = subcommand<{ kind: 'members'; search?: string; roles?: MemberRole[] }>({
  name: 'members',
  help: [
    {
      syntax: 'members [query] [role:admin,guest]',
      description: 'list members',
      example: 'members ada role:admin',
    },
  ],
  read(args) {
    let roles: MemberRole[] | undefined;
    const words: string[] = [];
    for (const word of args) {
      const role = word.match(/^roles?:(.*)$/i);
      if (!role) {
        words.push(word);
        continue;
      }
      const asked = rolesOf(role[1]!);
      if (typeof asked === 'string') return asked;
      roles = [...new Set([...(roles ?? []), ...asked])];
    }
    const search = unescapeSlack(words.join(' ')).trim();
    return { kind: 'members', ...(search ? { search } : {}), ...(roles ? { roles } : {}) };
  },
  plan: {
    members: (command, origin) => ({
      operation: 'listMembers',
      note: 'Looking up members…',
      data: {
        origin,
        ...(command.search ? { search: command.search } : {}),
        ...(command.roles ? { roles: command.roles } : {}),
      },
    }),
  },
});

/** `admin,guest` → the roles, or why not. */
function rolesOf(list: string): MemberRole[] | string {
  const asked = list
    .split(',')
    .map((r) => r.trim().toLowerCase())
    .filter(Boolean);
  const unknown = asked.filter((r) => !(MEMBER_ROLES as readonly string[]).includes(r));
  if (asked.length === 0 || unknown.length > 0) {
    return `Roles are ${MEMBER_ROLES.join(', ')}${unknown.length ? `; not ${unknown.join(', ')}` : ''}.`;
  }
  return asked as MemberRole[];
}
