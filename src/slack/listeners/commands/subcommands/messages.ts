/** The subcommands of chat threads: message people or a thread, read a thread. */
import { subcommand } from '../subcommand.ts';
import { isId, unescapeSlack } from '../words.ts';

const MAX_DM_PEOPLE = 20;

export const dm = subcommand<
  { kind: 'dm'; slackUserIds: string[]; text: string } | { kind: 'dmThread'; threadId: string; text: string }
>({
  name: 'dm',
  help: [
    {
      syntax: 'dm @someone [@other …] <text>',
      description: 'message people through a chat thread',
      example: 'dm @ada @grace Can you review the draft today?',
    },
    {
      syntax: 'dm <thread> <text>',
      description: 'message an existing thread',
      example: 'dm 5531 Draft is ready',
    },
  ],
  read(args) {
    const people: string[] = [];
    let i = 0;
    for (; i < args.length; i++) {
      const user = args[i]!.match(/^<@([UW][A-Z0-9]+)(\|[^>]*)?>$/);
      if (!user) break;
      if (!people.includes(user[1]!)) people.push(user[1]!);
    }
    const text = unescapeSlack(args.slice(i).join(' ')).trim();
    if (people.length > 0) {
      if (people.length > MAX_DM_PEOPLE) return `Message at most ${MAX_DM_PEOPLE} people at once.`;
      if (text === '') return 'Write the message after the people.';
      return { kind: 'dm', slackUserIds: people, text };
    }
    const first = args[0];
    if (first?.startsWith('@')) {
      return `\`${first}\` is not a Slack mention. Pick people from the @ list so Slack turns them into mentions.`;
    }
    if (first === undefined || !isId(first))
      return 'Say who to message: mention them with @, or give a thread id.';
    const threadText = unescapeSlack(args.slice(1).join(' ')).trim();
    if (threadText === '') return 'Write the message after the thread id.';
    return { kind: 'dmThread', threadId: first, text: threadText };
  },
  plan: {
    dm: (command, origin) => ({
      operation: 'sendDm',
      note: 'Sending your message…',
      data: { origin, slackUserIds: command.slackUserIds, text: command.text },
    }),
    dmThread: (command, origin) => ({
      operation: 'sendDm',
      note: 'Sending your message…',
      data: { origin, threadId: command.threadId, text: command.text },
    }),
  },
});

export const thread = subcommand<{ kind: 'thread'; threadId: string }>({
  name: 'thread',
  help: [{ syntax: 'thread <thread>', description: "show a thread's messages", example: 'thread 5531' }],
  read(args) {
    const threadId = args[0];
    if (!threadId || !isId(threadId)) return 'Name the thread: its id.';
    if (args.length > 1) return '`thread` takes only the thread id.';
    return { kind: 'thread', threadId };
  },
  plan: {
    thread: (command, origin) => ({
      operation: 'listMessages',
      note: 'Fetching the thread…',
      data: { origin, threadId: command.threadId },
    }),
  },
});
