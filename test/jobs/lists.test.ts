import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedRequest } from '../../src/sandbox/emulator/index.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { blockText, channelId, originOf, responses, responseTexts, run } from './helpers.ts';

describe('lists, and linking channels', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const lastRequest = (route: string): ReceivedRequest => {
    const found = h.emulator.received.filter((r) => r.route === route).at(-1);
    if (!found) throw new Error(`no request ${route}`);
    return found;
  };

  /** The value of a paging button of a rendered list, if any. */
  const button = (blocks: unknown, actionId: string): string | undefined => {
    for (const block of (blocks as Array<{
      type: string;
      elements?: Array<{ action_id?: string; value?: string }>;
    }>) ?? []) {
      const found = block.elements?.find((e) => e.action_id === actionId);
      if (found) return found.value;
    }
    return undefined;
  };

  it('listPosts: newest activity first, ten a page, paging forward and back', async () => {
    const origin = originOf(h);
    expect((await run(h, 'listPosts', { origin })).state).toBe('completed');
    expect(lastRequest('GET /v2/posts').query).toEqual({
      sort: 'last_activity_at',
      direction: 'desc',
      limit: '10',
    });
    const [first] = responses(h, origin);
    expect(first?.args.replace_original).toBe(true);
    const shown = blockText(first?.args.blocks);
    expect(shown).toContain('Recent posts');
    expect(shown).toContain('Launch blog post'); // the most recently active seeded post
    const next = button(first?.args.blocks, 'list_next');
    expect(next).toBeDefined();
    expect(button(first?.args.blocks, 'list_prev')).toBeUndefined();

    const state = await h.bot.store.pages.load('T_LOCAL', next!);
    expect(state).toMatchObject({
      operation: 'listPosts',
      query: { unresolvedOnly: false },
      direction: 'next',
    });
    const paged = originOf(h, { source: 'button' });
    const { state: second } = await run(h, 'listPosts', {
      origin: paged,
      ...state!.query,
      cursor: state!.cursor,
      direction: 'next',
      trail: state!.trail,
      replace: true,
    });
    expect(second).toBe('completed');
    expect(lastRequest('GET /v2/posts').query.after).toBe(state!.cursor);
    const [page2] = responses(h, paged);
    expect(page2?.args.replace_original).toBe(true);
    expect(blockText(page2?.args.blocks)).toContain('Welcome to the team space'); // the oldest activity
    // The service answers no prev_cursor to forward paging: Previous goes back along the trail.
    const prev = await h.bot.store.pages.load('T_LOCAL', button(page2?.args.blocks, 'list_prev')!);
    expect(prev).toMatchObject({ direction: 'next', cursor: '', trail: [] });

    const back = originOf(h, { source: 'button' });
    await run(h, 'listPosts', {
      origin: back,
      ...prev!.query,
      cursor: prev!.cursor,
      direction: prev!.direction,
      trail: prev!.trail,
      replace: true,
    });
    expect(lastRequest('GET /v2/posts').query.after).toBeUndefined();
    expect(button(responses(h, back)[0]?.args.blocks, 'list_prev')).toBeUndefined();
    expect(blockText(responses(h, back)[0]?.args.blocks)).toContain('Launch blog post');
  });

  it('listPosts: of one channel, unresolved only (this page), and says so', async () => {
    const origin = originOf(h);
    await run(h, 'listPosts', { origin, channel: { name: 'engineering' }, unresolvedOnly: true });
    expect(lastRequest('GET /v2/posts').query).toMatchObject({ channel_id: channelId(h, 'engineering') });
    const shown = blockText(responses(h, origin)[0]?.args.blocks);
    expect(shown).toContain('Posts in #engineering — unresolved on this page');
    expect(shown).toContain('RFC: shortest-path caching');
    expect(shown).not.toContain('Flaky integration tests'); // the seeded resolved post
  });

  it('listChannels: by name, twenty a page, with a name filter', async () => {
    const origin = originOf(h, { source: 'modal' });
    await run(h, 'listChannels', { origin });
    expect(lastRequest('GET /v2/channels').query).toEqual({ sort: 'name', direction: 'asc', limit: '20' });
    const [answer] = responses(h, origin);
    expect(answer?.args.replace_original).toBe(false);
    const shown = blockText(answer?.args.blocks);
    expect(shown.indexOf('#announcements')).toBeLessThan(shown.indexOf('#support'));

    await run(h, 'listChannels', { origin: originOf(h), name: '#eng' });
    expect(lastRequest('GET /v2/channels').query.name).toBe('eng');
  });

  it('listMembers: newest first, ten a page, search and roles', async () => {
    const origin = originOf(h);
    await run(h, 'listMembers', { origin, search: 'grace', roles: ['admin', 'guest'] });
    expect(lastRequest('GET /v2/members').query).toEqual({
      sort: 'created_at',
      direction: 'desc',
      limit: '10',
      q: 'grace',
      roles: 'admin,guest',
    });
    const shown = blockText(responses(h, origin)[0]?.args.blocks);
    expect(shown).toContain('Grace Hopper');
    expect(shown).not.toContain('Ada Lovelace');
  });

  it('listMessages: oldest first; an unknown thread is named', async () => {
    const thread = [...h.emulator.org().threads.values()][0]!;
    const origin = originOf(h);
    await run(h, 'listMessages', { origin, threadId: thread.id });
    expect(lastRequest('GET /v2/threads/{thread_id}/messages').query).toEqual({
      sort: 'created_at',
      direction: 'asc',
      limit: '10',
    });
    const first = [...h.emulator.org().messages.values()]
      .filter((m) => m.thread_id === thread.id)
      .sort((a, b) => a.created_at.localeCompare(b.created_at))[0]!;
    expect(blockText(responses(h, origin)[0]?.args.blocks)).toContain(first.content_markdown.split('\n')[0]!);

    const missing = originOf(h);
    expect((await run(h, 'listMessages', { origin: missing, threadId: 'thr_nope' })).state).toBe('failed');
    expect(responseTexts(h, missing)).toEqual([
      ":warning: No thread with id `thr_nope`. A thread's id is in the note of the `/collab dm` that started it.",
    ]);
  });

  it('linkChannel and unlinkChannel', async () => {
    const slackChannel = 'C_TO_LINK';
    const linked = originOf(h, { slackChannel });
    await run(h, 'linkChannel', { origin: linked, channel: { name: 'Design' }, bridgeReplies: true });
    expect(await h.bot.store.links.get('T_LOCAL', slackChannel)).toMatchObject({
      channelId: channelId(h, 'design'),
      channelName: 'design',
      bridgeReplies: true,
      linkedBy: 'U_ADA',
    });
    expect(responseTexts(h, linked)).toEqual([
      ":white_check_mark: Linked this Slack channel to #design: `/collab post` goes there, and replies in a card's thread become comments.",
    ]);

    const relinked = originOf(h, { slackChannel });
    await run(h, 'linkChannel', {
      origin: relinked,
      channel: { id: channelId(h, 'support') },
      bridgeReplies: false,
    });
    expect((await h.bot.store.links.get('T_LOCAL', slackChannel))?.channelName).toBe('support');
    expect(responseTexts(h, relinked)).toEqual([
      ':white_check_mark: Linked this Slack channel to #support: `/collab post` goes there.',
    ]);

    const unlinked = originOf(h, { slackChannel });
    await run(h, 'unlinkChannel', { origin: unlinked });
    expect(await h.bot.store.links.get('T_LOCAL', slackChannel)).toBeUndefined();
    expect(responseTexts(h, unlinked)).toEqual([':white_check_mark: Unlinked from #support.']);

    const again = originOf(h, { slackChannel });
    await run(h, 'unlinkChannel', { origin: again });
    expect(responseTexts(h, again)).toEqual([':white_check_mark: This Slack channel was not linked.']);
  });

  it('linkChannel to a channel that does not exist', async () => {
    const origin = originOf(h);
    expect(
      (await run(h, 'linkChannel', { origin, channel: { name: 'nope' }, bridgeReplies: false })).state,
    ).toBe('failed');
    expect(responseTexts(h, origin)).toEqual([
      ':warning: There is no channel named #nope. See the channels with `/collab channels`.',
    ]);
  });
});
