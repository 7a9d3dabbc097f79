/** listChannels: one page of channels by name, optionally filtered by name. */
import { channelList } from '../../render/lists.ts';
import type { Processor } from '../context.ts';
import { cursorOption, deliverList, pagingButtons } from '../paging.ts';
import { channelName } from '../resolveRefs.ts';

export const CHANNELS_PAGE_SIZE = 20;

export const listChannels: Processor<'listChannels'> = async (data, ctx) => {
  const name = data.name ? channelName(data.name) : '';
  const page = await ctx.collab.listChannels({
    sort: 'name',
    direction: 'asc',
    limit: CHANNELS_PAGE_SIZE,
    ...(name ? { name } : {}),
    ...cursorOption(data),
  });
  const paging = await pagingButtons(ctx, 'listChannels', { name: data.name }, page, data);
  const title = name ? `Channels matching “${name}”` : 'Channels';
  await deliverList(ctx, data.origin, data, channelList(page, { title, paging }));
};
