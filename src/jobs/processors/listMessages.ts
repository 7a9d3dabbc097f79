/** listMessages: one page of a thread's messages, oldest first (a conversation reads down). */
import { messageList } from '../../render/lists.ts';
import type { Processor } from '../context.ts';
import { cursorOption, deliverList, pagingButtons } from '../paging.ts';
import { noThreadFor, orNotFound } from '../resolveRefs.ts';

export const MESSAGES_PAGE_SIZE = 10;

export const listMessages: Processor<'listMessages'> = async (data, ctx) => {
  const page = await orNotFound(
    () =>
      ctx.collab.listMessages(data.threadId, {
        sort: 'created_at',
        direction: 'asc',
        limit: MESSAGES_PAGE_SIZE,
        ...cursorOption(data),
      }),
    () => noThreadFor(ctx, data.threadId, data.origin),
  );
  const paging = await pagingButtons(ctx, 'listMessages', { threadId: data.threadId }, page, data);
  // The spec has no get-thread endpoint: the thread's title is only known for threads the bot made.
  await deliverList(ctx, data.origin, data, messageList(page, { title: `Thread ${data.threadId}`, paging }));
};
