/** listMembers: one page of members, newest first, optionally searched and filtered by role. */
import { memberList } from '../../render/lists.ts';
import type { Processor } from '../context.ts';
import { cursorOption, deliverList, pagingButtons } from '../paging.ts';

export const MEMBERS_PAGE_SIZE = 10;

export const listMembers: Processor<'listMembers'> = async (data, ctx) => {
  const search = data.search?.trim() ?? '';
  const roles = data.roles && data.roles.length > 0 ? data.roles : undefined;
  const page = await ctx.collab.listMembers({
    sort: 'created_at',
    direction: 'desc',
    limit: MEMBERS_PAGE_SIZE,
    ...(search ? { search } : {}),
    ...(roles ? { roles } : {}),
    ...cursorOption(data),
  });
  const paging = await pagingButtons(
    ctx,
    'listMembers',
    { search: data.search, roles: data.roles },
    page,
    data,
  );
  const filters = [search ? `matching “${search}”` : '', roles ? `(${roles.join(', ')})` : ''].filter(
    Boolean,
  );
  const title = ['Members', ...filters].join(' ');
  await deliverList(ctx, data.origin, data, memberList(page, { title, paging }));
};
