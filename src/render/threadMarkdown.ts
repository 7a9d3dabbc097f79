/**
 * A Slack thread → the markdown of a post, for "Create post from thread": the parent message,
 * then each reply with its author's name and a link to it. Replies that do not fit the form's
 * limit are counted, with a link to the thread, never dropped silently.
 */
import { type SlackNames, slackToMarkdown } from './slackMarkdown.ts';

export interface ThreadMessage {
  ts: string;
  text: string;
  /** the Slack user who wrote it; absent for an app's message */
  user?: string | undefined;
  permalink?: string | undefined;
}

function authorOf(message: ThreadMessage, names: SlackNames): string {
  if (message.user === undefined) return 'An app';
  return names.user(message.user) ?? message.user;
}

function replyMarkdown(reply: ThreadMessage, names: SlackNames): string {
  const link = reply.permalink ? ` ([message](${reply.permalink}))` : '';
  const text = slackToMarkdown(reply.text, names).trim() || '_(no text)_';
  // A list item: continuation lines are indented so the reply stays one item.
  return `- **${authorOf(reply, names)}**${link}: ${text.replace(/\n/g, '\n  ')}`;
}

/** The thread as markdown of at most `max` characters. */
export function threadToMarkdown(
  root: ThreadMessage,
  replies: ThreadMessage[],
  names: SlackNames,
  max: number,
): string {
  const head = slackToMarkdown(root.text, names, root.permalink);
  if (replies.length === 0) return head;
  const heading = `\n\n**Replies in Slack**\n\n`;
  const lines: string[] = [];
  let used = head.length + heading.length;
  for (const [i, reply] of replies.entries()) {
    const line = replyMarkdown(reply, names);
    const left = replies.length - i - 1;
    // Room for this line and, if replies are left after it, the note counting them.
    const note = left > 0 ? 80 : 0;
    if (used + line.length + 1 + note > max) {
      const more = replies.length - i;
      const where = root.permalink ? ` [in Slack](${root.permalink})` : ' in Slack';
      lines.push(`_…and ${more} more ${more === 1 ? 'reply' : 'replies'}${where}_`);
      break;
    }
    lines.push(line);
    used += line.length + 1;
  }
  return `${head}${heading}${lines.join('\n')}`;
}
