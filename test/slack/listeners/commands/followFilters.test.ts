/**
 * Feeds without noise: `/collab follow` with filters, through signed slash commands into the
 * real bot and worker, the emulator and the Slack stand-in. Each filter (unresolved, no-apps,
 * with, without) cards what it should and nothing else; changing the filters keeps the feed's
 * watermark; `follow list`, App Home and digests show and apply the same filters.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerId } from '../../../../src/jobs/schedules.ts';
import { parseCommand } from '../../../../src/slack/listeners/commands/grammar.ts';
import { blockText, callsOf, memberId, originOf, run, unique } from '../../../jobs/helpers.ts';
import { type Harness, startHarness, TEAM } from '../../../support/harness.ts';

const HOUR = '3600000';

describe('follow filters: the grammar', () => {
  it.each([
    ['follow', { kind: 'follow' }],
    ['follow list', { kind: 'followList' }],
    ['follow all', { kind: 'follow', filters: {} }],
    ['follow unresolved', { kind: 'follow', filters: { unresolved: true } }],
    ['follow no-apps', { kind: 'follow', filters: { noApps: true } }],
    [
      'follow unresolved no-apps with "deploy window" with release without “wip”',
      {
        kind: 'follow',
        filters: { unresolved: true, noApps: true, with: ['deploy window', 'release'], without: ['wip'] },
      },
    ],
  ])('%s', (text, command) => {
    expect(parseCommand(text)).toEqual({ ok: true, command });
  });

  it('refuses unknown filters and a with without its word, saying what it takes', () => {
    expect(parseCommand('follow unresolvd')).toMatchObject({
      ok: false,
      error: expect.stringContaining('`unresolved`, `no-apps`, `with "word"`, `without "word"`, or `all`'),
    });
    expect(parseCommand('follow with')).toMatchObject({
      ok: false,
      error: expect.stringContaining('after `with`'),
    });
  });

  it('digest add takes the same filters after the schedule and time zone', () => {
    expect(parseCommand('digest add every weekday at 9:00 in Europe/Paris unresolved without "wip"')).toEqual(
      {
        ok: true,
        command: {
          kind: 'digestAdd',
          pattern: '0 9 * * 1-5',
          label: 'every weekday at 09:00',
          tz: 'Europe/Paris',
          filters: { unresolved: true, without: ['wip'] },
        },
      },
    );
  });
});

describe('follow filters: feeds and digests', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { FEED_POLL_INTERVAL_MS: HOUR } });
  });
  afterAll(() => h.close());

  const grace = () => h.emulator.org().actAs(memberId(h, 'grace@example.com'));

  /** A Slack channel linked to a fresh collaboration channel of its own. */
  async function linked() {
    const name = `filt-${randomBytes(3).toString('hex')}`;
    const channel = h.emulator.org().addChannel(name, new Date(Date.now() - 86_400_000)).id;
    const slackChannel = `C_${name.replace('-', '_').toUpperCase()}`;
    const origin = originOf(h, { slackChannel });
    expect(
      (await run(h, 'linkChannel', { origin, channel: { id: channel }, bridgeReplies: false })).state,
    ).toBe('completed');
    return { slackChannel, channel, name };
  }

  /** A signed `/collab <text>` in the Slack channel; answers once its job (and a follow's first tick) settled. */
  async function command(slackChannel: string, text: string, operation: string) {
    const settled = h.nextSettled(operation);
    // A new follow's scheduler runs its first tick at once (it only takes the watermark).
    const isNew =
      operation === 'followChannel' && (await h.bot.store.feeds.get(TEAM, slackChannel)) === undefined;
    const firstTick = isNew ? h.nextSettled('pollFeed') : undefined;
    expect((await h.command(text, { channel: slackChannel })).status).toBe(200);
    const { job, state } = await settled;
    expect(state).toBe('completed');
    if (firstTick) expect((await firstTick).state).toBe('completed');
    return job;
  }

  async function poll(slackChannel: string) {
    expect((await run(h, 'pollFeed', { teamId: TEAM, slackChannel })).state).toBe('completed');
  }

  const carded = async (postId: string, slackChannel: string) =>
    (await h.bot.store.cards.cardsOfPost(TEAM, postId)).some((c) => c.slackChannel === slackChannel);

  /** The outcome posted to a response_url holding `words`. */
  const told = (words: string) =>
    h.slackCall((c) => c.method === 'response_url' && blockText(c.args.blocks).includes(words));

  it('unresolved: a post resolved before the poll sees it gets no card; an open one does', async () => {
    const { slackChannel, channel } = await linked();
    await command(slackChannel, 'follow unresolved', 'followChannel');
    await told('New posts shown: only unresolved posts.');
    const open = grace().createPost({ channel_id: channel, title: unique('Open'), content_markdown: 'x' });
    const done = grace().createPost({ channel_id: channel, title: unique('Done'), content_markdown: 'x' });
    grace().resolvePost(done.id);
    await poll(slackChannel);
    expect(await carded(open.id, slackChannel)).toBe(true);
    expect(await carded(done.id, slackChannel)).toBe(false);
  });

  it('no-apps: a post written by an integration gets no card', async () => {
    const { slackChannel, channel } = await linked();
    await command(slackChannel, 'follow no-apps', 'followChannel');
    const org = h.emulator.org();
    const byApp = org.createPost(org.app, {
      channel_id: channel,
      title: unique('Bot'),
      content_markdown: 'x',
    });
    const byPerson = grace().createPost({
      channel_id: channel,
      title: unique('Person'),
      content_markdown: 'x',
    });
    await poll(slackChannel);
    expect(await carded(byPerson.id, slackChannel)).toBe(true);
    expect(await carded(byApp.id, slackChannel)).toBe(false);
  });

  it('with and without: words of the title or content, any case', async () => {
    const { slackChannel, channel } = await linked();
    await command(slackChannel, 'follow with "deploy" with release without "WIP"', 'followChannel');
    await told('New posts shown: with “deploy” or “release”, without “WIP”.');
    const title = (t: string) => unique(t);
    const deploy = grace().createPost({
      channel_id: channel,
      title: title('Deploy done'),
      content_markdown: 'x',
    });
    const release = grace().createPost({
      channel_id: channel,
      title: title('Notes'),
      content_markdown: 'The RELEASE',
    });
    const lunch = grace().createPost({
      channel_id: channel,
      title: title('Lunch'),
      content_markdown: 'pizza',
    });
    const wip = grace().createPost({
      channel_id: channel,
      title: title('wip: deploy'),
      content_markdown: 'x',
    });
    await poll(slackChannel);
    expect(await carded(deploy.id, slackChannel)).toBe(true);
    expect(await carded(release.id, slackChannel)).toBe(true);
    expect(await carded(lunch.id, slackChannel)).toBe(false);
    expect(await carded(wip.id, slackChannel)).toBe(false);
  });

  it('changing the filters keeps the watermark: nothing is carded twice or skipped; follow all clears them', async () => {
    const { slackChannel, channel, name } = await linked();
    await command(slackChannel, 'follow', 'followChannel');
    const first = grace().createPost({ channel_id: channel, title: unique('First'), content_markdown: 'x' });
    await poll(slackChannel);
    expect(await carded(first.id, slackChannel)).toBe(true);
    const before = await h.bot.store.feeds.get(TEAM, slackChannel);

    const meanwhile = grace().createPost({
      channel_id: channel,
      title: unique('Meanwhile wip'),
      content_markdown: 'x',
    });
    const kept = grace().createPost({ channel_id: channel, title: unique('Kept'), content_markdown: 'x' });
    await command(slackChannel, 'follow without wip', 'followChannel');
    await told(`This channel follows #${name}, with new filters: New posts shown: without “wip”.`);
    const after = await h.bot.store.feeds.get(TEAM, slackChannel);
    expect(after?.watermark).toEqual(before?.watermark);
    expect(after?.since).toEqual(before?.since);
    expect(after?.filters).toEqual({ without: ['wip'] });

    await poll(slackChannel);
    expect(await carded(kept.id, slackChannel)).toBe(true);
    expect(await carded(meanwhile.id, slackChannel)).toBe(false);
    const firstCards = callsOf(h, 'chat.postMessage').filter(
      (c) => c.args.channel === slackChannel && blockText(c.args.blocks).includes(String(first.title)),
    );
    expect(firstCards).toHaveLength(1);

    await command(slackChannel, 'follow all', 'followChannel');
    expect((await h.bot.store.feeds.get(TEAM, slackChannel))?.filters).toBeUndefined();
  });

  it('follow list and App Home show each followed channel with its filters', async () => {
    const { slackChannel, name } = await linked();
    await command(slackChannel, 'follow unresolved no-apps', 'followChannel');
    await command(slackChannel, 'follow list', 'listFollows');
    const list = await told('Followed channels');
    expect(blockText(list.args.blocks)).toContain(
      `<#${slackChannel}> → *#${name}*  ·  only unresolved posts, none by integrations`,
    );

    const home = h.nextSettled('publishHome');
    await h.event({ type: 'app_home_opened', user: 'U_ADA', channel: 'D_U_ADA', tab: 'home' });
    expect((await home).state).toBe('completed');
    const view = callsOf(h, 'views.publish')
      .filter((c) => c.args.user_id === 'U_ADA')
      .at(-1);
    expect(blockText(view?.args.view)).toContain(
      `:satellite_antenna: followed: only unresolved posts, none by integrations`,
    );
  });

  it('a digest with filters covers only the posts that pass them', async () => {
    const { slackChannel, channel } = await linked();
    await command(slackChannel, 'digest add every weekday at 9:00 in UTC with "deploy"', 'addDigest');
    await told(': with “deploy”.');
    const [digest] = await h.bot.store.digests.list(TEAM, slackChannel);
    expect(digest?.filters).toEqual({ with: ['deploy'] });
    const wanted = grace().createPost({
      channel_id: channel,
      title: unique('Deploy news'),
      content_markdown: 'x',
    });
    const noise = grace().createPost({
      channel_id: channel,
      title: unique('Lunch news'),
      content_markdown: 'x',
    });
    await h.bot.store.digests.setLastUntil(TEAM, digest!.id, Date.now() - 7 * 86_400_000);
    const next = (await h.bot.schedules.get(schedulerId(TEAM, 'digest', digest!.id)))?.next;
    expect((await run(h, 'sendDigest', { teamId: TEAM, digestId: digest!.id, slot: next! })).state).toBe(
      'completed',
    );
    const posted = callsOf(h, 'chat.postMessage').find((c) => c.args.channel === slackChannel);
    const text = blockText(posted?.args.blocks);
    expect(text).toContain(String(wanted.title));
    expect(text).not.toContain(String(noise.title));

    await command(slackChannel, 'digest list', 'listDigests');
    const list = await told('Digests of this channel');
    expect(blockText(list.args.blocks)).toContain('with “deploy”');
  });
});
