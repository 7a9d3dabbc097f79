/** The sandbox's people and channels, as Slack names them in what it sends. */
import type { SlackChannel, SlackUser } from '../slack/types.ts';
import { BadRequest } from './http.ts';

export class Directory {
  constructor(
    readonly users: SlackUser[],
    readonly channels: SlackChannel[],
  ) {}

  user(id: string): SlackUser {
    const user = this.users.find((u) => u.id === id);
    if (user === undefined) throw new BadRequest(`unknown user ${id}`);
    return user;
  }

  /** A person as a payload's `user`. */
  userRef(id: string) {
    const { name } = this.user(id);
    return { id, name, username: name };
  }

  /** A channel as a payload's `channel` (a DM's name is `directmessage`). */
  channelRef(id: string) {
    return {
      id,
      name: this.channels.find((c) => c.id === id)?.name ?? (id.startsWith('D') ? 'directmessage' : id),
    };
  }
}
