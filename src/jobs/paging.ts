/**
 * What the four list operations share: one page at a time, the page's cursors saved in the store
 * behind short ids (button values are short), and the page delivered to the person alone.
 */
import type { Page } from '../collab/schemas.ts';
import { replacesAck, type SlackMessage } from '../engine/index.ts';
import type { Origin } from '../operations/schemas.ts';
import type { PagingButtons } from '../render/lists.ts';
import type { PageState } from '../store/pages.ts';
import type { ProcessorContext } from './context.ts';

export interface PagingInput {
  cursor?: string | undefined;
  direction?: 'next' | 'prev' | undefined;
  trail?: string[] | undefined;
  replace?: boolean | undefined;
}

/** The cursor option of the request: a `prev_cursor` travels as `before`, a `next_cursor` as `after`. */
export function cursorOption(paging: PagingInput): { after?: string; before?: string } {
  if (!paging.cursor) return {};
  return paging.direction === 'prev' ? { before: paging.cursor } : { after: paging.cursor };
}

/**
 * Saves the page's cursors, for the Previous / Next buttons. A service may answer no
 * `prev_cursor` to forward paging (the real one does not), so Previous goes back along the trail
 * of forward cursors that led here; a `prev_cursor` is used only for a page without a trail.
 */
export async function pagingButtons(
  ctx: ProcessorContext,
  operation: PageState['operation'],
  query: Record<string, unknown>,
  page: Page<unknown>,
  paging: PagingInput = {},
): Promise<PagingButtons> {
  const save = (cursor: string, direction: 'next' | 'prev', trail: string[]) =>
    ctx.store.pages.save(ctx.teamId, { operation, query: withoutUndefined(query), cursor, direction, trail });
  const trail = paging.direction === 'prev' ? [] : (paging.trail ?? []);
  const here = paging.direction === 'prev' ? undefined : (paging.cursor ?? '');
  const buttons: PagingButtons = {};
  if (page.next_cursor) {
    buttons.next = await save(page.next_cursor, 'next', here === undefined ? [] : [...trail, here]);
  }
  const back = trail.at(-1);
  if (here !== undefined && here !== '' && back !== undefined) {
    buttons.prev = await save(back, 'next', trail.slice(0, -1));
  } else if (page.prev_cursor) {
    buttons.prev = await save(page.prev_cursor, 'prev', []);
  }
  return buttons;
}

/**
 * Shows the page to the person: in place of the list they paged from (`replace`), or of a
 * slash command's "working on it" note; otherwise as a new ephemeral message.
 */
export async function deliverList(
  ctx: ProcessorContext,
  origin: Origin,
  paging: PagingInput,
  message: SlackMessage,
): Promise<void> {
  await ctx.outcomes.deliver(origin, message, {
    replaceOriginal: paging.replace === true || replacesAck(origin),
  });
}

function withoutUndefined(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined));
}
