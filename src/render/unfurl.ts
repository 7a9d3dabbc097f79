/**
 * The unfurl of a link to a post: the post card (title, channel, author, state, comment count,
 * excerpt with "Read more") without the Resolve / Comment buttons — an unfurl sits on someone
 * else's message, not on a card of the bot's — and with a hint of the commands that act on it
 * (comment, and resolve or reopen as its state allows).
 * The bot updates it in place when it changes the post (jobs/unfurls.ts).
 */
import type { KnownBlock } from '@slack/types';
import { isResolved, type Post } from '../collab/schemas.ts';
import { LIMITS, md } from './limits.ts';
import { postCard } from './postCard.ts';
import { escapeMrkdwn } from './text.ts';

export function postUnfurl(post: Post, command: string): { blocks: KnownBlock[] } {
  const card = postCard(post);
  const blocks = card.blocks.filter((block) => block.type !== 'actions');
  const id = escapeMrkdwn(post.id);
  const cmd = escapeMrkdwn(command);
  // What can still be done to it: a resolved post is reopened, an open one resolved.
  const next = isResolved(post)
    ? `reopen it with \`${cmd} reopen ${id}\``
    : `resolve it with \`${cmd} resolve ${id}\``;
  blocks.push({
    type: 'context',
    elements: [md(`Comment with \`${cmd} reply ${id} &lt;text&gt;\`, or ${next}.`, LIMITS.contextText)],
  });
  return { blocks };
}
