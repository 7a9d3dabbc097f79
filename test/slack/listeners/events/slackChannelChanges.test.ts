/**
 * Slack channels that come and go, through signed event requests into the real bot and its
 * worker: an archived, deleted or left channel has its feed and digests paused (records kept,
 * schedulers removed), resumed on unarchive or re-invite; App Home shows the pause; a card or a
 * digest that finds the channel archived pauses it instead of failing, and nothing is lost.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerId } from '../../../../src/jobs/schedules.ts';
import { blockText, callsOf, memberId, originOf, run, unique } from '../../../jobs/helpers.ts';
import { type Harness, startHarness, TEAM } from '../../../support/harness.ts';

const HOUR = '3600000';

describe('Slack channels that come and go', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { FEED_POLL_INTERVAL_MS: HOUR } });
  });
  afterAll(() => h.close());

  const feedId = (slackChannel: string) => schedulerId(TEAM, 'feed', slackChannel);
  const digestId = (id: string) => schedulerId(TEAM, 'digest', id);

  /** A Slack channel linked to a fresh collaboration channel, followed, with one digest. */
  async function followedWithDigest() {
    const name = `life-${randomBytes(3).toString('hex')}`;
    const channel = h.emulator.org().addChannel(name, new Date(Date.now() - 86_400_000)).id;
    const slackChannel = `C_${name.replace('-', '_').toUpperCase()}`;
    const origin = originOf(h, { slackChannel });
    expect(
      (await run(h, 'linkChannel', { origin, channel: { id: channel }, bridgeReplies: false })).state,
    ).toBe('completed');
    const firstTick = h.nextSettled('pollFeed');
    expect((await run(h, 'followChannel', { origin: originOf(h, { slackChannel }) })).state).toBe(
      'completed',
    );
    expect((await firstTick).state).toBe('completed');
    expect(
      (
        await run(h, 'addDigest', {
          origin: originOf(h, { slackChannel }),
          pattern: '0 9 * * 1-5',
          label: 'every weekday at 09:00',
          tz: 'UTC',
        })
      ).state,
    ).toBe('completed');
    const [digest] = await h.bot.store.digests.list(TEAM, slackChannel);
    return { slackChannel, channel, digest: digest! };
  }

  /** Sends a signed event and waits for the job it enqueued. */
  async function send(event: Record<string, unknown>, options: { eventTime?: number } = {}) {
    const eventId = `Ev${randomBytes(6).toString('hex').toUpperCase()}`;
    const res = await h.event(event, { eventId, ...options });
    expect(res.status).toBe(200);
    const state = await h.settled(await h.queuedAs(`channel:${eventId}`));
    expect(state).toBe('completed');
    return eventId;
  }

  async function expectPaused(slackChannel: string, digest: { id: string }, reason: string) {
    expect(await h.bot.store.slackChannels.get(TEAM, slackChannel)).toMatchObject({ paused: true, reason });
    expect(await h.bot.schedules.get(feedId(slackChannel))).toBeUndefined();
    expect(await h.bot.schedules.get(digestId(digest.id))).toBeUndefined();
    // Paused, not lost: the follow (with its watermark) and the digest are kept.
    expect((await h.bot.store.feeds.get(TEAM, slackChannel))?.watermark).toBeDefined();
    expect(await h.bot.store.digests.get(TEAM, digest.id)).toBeDefined();
  }

  async function expectRunning(slackChannel: string, digest: { id: string }) {
    expect(await h.bot.store.slackChannels.isPaused(TEAM, slackChannel)).toBe(false);
    expect(await h.bot.schedules.get(feedId(slackChannel))).toMatchObject({ every: Number(HOUR) });
    expect(await h.bot.schedules.get(digestId(digest.id))).toMatchObject({
      pattern: '0 9 * * 1-5',
      tz: 'UTC',
    });
  }

  it('channel_archive pauses the feed and digests, channel_unarchive resumes them; App Home says so', async () => {
    const { slackChannel, digest } = await followedWithDigest();
    await expectRunning(slackChannel, digest);

    await send({ type: 'channel_archive', channel: slackChannel, user: 'U_ADA' });
    await expectPaused(slackChannel, digest, 'archived');

    const home = h.nextSettled('publishHome');
    await h.event({ type: 'app_home_opened', user: 'U_ADA', channel: 'D_U_ADA', tab: 'home' });
    expect((await home).state).toBe('completed');
    const published = callsOf(h, 'views.publish')
      .filter((c) => c.args.user_id === 'U_ADA')
      .at(-1);
    const text = blockText(published?.args.view);
    expect(text).toContain('Paused channels');
    expect(text).toContain(`<#${slackChannel}>: archived (since `);
    expect(text).toContain('its feed and 1 digest paused');
    expect(text).toContain(':double_vertical_bar: paused');

    await send({ type: 'channel_unarchive', channel: slackChannel, user: 'U_ADA' });
    await expectRunning(slackChannel, digest);
  });

  it('a redelivered archive event is one job', async () => {
    const { slackChannel, digest } = await followedWithDigest();
    const eventId = await send({ type: 'group_archive', channel: slackChannel });
    const again = await h.event({ type: 'group_archive', channel: slackChannel }, { eventId, retryNum: 1 });
    expect(again.status).toBe(200);
    const jobs = await h.bot.queue.queue.getJobs(['completed', 'waiting', 'active', 'delayed']);
    expect(
      jobs.filter((j) => j.name === 'slackChannelChanged' && j.data.slackChannel === slackChannel),
    ).toHaveLength(1);
    await expectPaused(slackChannel, digest, 'archived');
  });

  it('the bot leaving pauses, being invited back resumes; other people coming and going change nothing', async () => {
    const { slackChannel, digest } = await followedWithDigest();
    const before = (await h.bot.queue.queue.getJobs(['completed'])).length;
    const other = await h.event({
      type: 'member_left_channel',
      user: 'U_GRACE',
      channel: slackChannel,
      channel_type: 'C',
      team: TEAM,
    });
    expect(other.status).toBe(200);
    await expectRunning(slackChannel, digest);
    expect((await h.bot.queue.queue.getJobs(['completed', 'waiting', 'active'])).length).toBe(before);

    await send({
      type: 'member_left_channel',
      user: 'U_BOT',
      channel: slackChannel,
      channel_type: 'C',
      team: TEAM,
    });
    await expectPaused(slackChannel, digest, 'removed');
    await send({
      type: 'member_joined_channel',
      user: 'U_BOT',
      channel: slackChannel,
      channel_type: 'C',
      team: TEAM,
    });
    await expectRunning(slackChannel, digest);
  });

  it('channel_deleted pauses and keeps the records', async () => {
    const { slackChannel, digest } = await followedWithDigest();
    await send({ type: 'channel_deleted', channel: slackChannel });
    await expectPaused(slackChannel, digest, 'deleted');
  });

  it('an unarchive older than the archive already recorded changes nothing (events are not ordered)', async () => {
    const { slackChannel, digest } = await followedWithDigest();
    const now = Math.floor(Date.now() / 1000);
    await send({ type: 'channel_archive', channel: slackChannel, user: 'U_ADA' }, { eventTime: now });
    await send({ type: 'channel_unarchive', channel: slackChannel, user: 'U_ADA' }, { eventTime: now - 60 });
    await expectPaused(slackChannel, digest, 'archived');
  });

  it('a card that finds the channel archived pauses the feed; after the unarchive the post is carded, not lost', async () => {
    const { slackChannel, channel, digest } = await followedWithDigest();
    h.slack.changeChannel(slackChannel, { archived: true });
    const grace = h.emulator.org().actAs(memberId(h, 'grace@example.com'));
    const title = unique('While archived');
    const post = grace.createPost({ channel_id: channel, title, content_markdown: 'Written meanwhile' });

    const poll = await run(h, 'pollFeed', { teamId: TEAM, slackChannel });
    expect(poll.state).toBe('completed');
    await expectPaused(slackChannel, digest, 'archived');
    expect(await h.bot.store.cards.cardsOfPost(TEAM, post.id)).toEqual([]);

    // A tick queued before the pause polls nothing.
    const requests = h.emulator.received.length;
    expect((await run(h, 'pollFeed', { teamId: TEAM, slackChannel })).state).toBe('completed');
    expect(h.emulator.received.length).toBe(requests);

    h.slack.changeChannel(slackChannel, { archived: false });
    await send({ type: 'channel_unarchive', channel: slackChannel, user: 'U_ADA' });
    await expectRunning(slackChannel, digest);
    expect((await run(h, 'pollFeed', { teamId: TEAM, slackChannel })).state).toBe('completed');
    const [card] = await h.bot.store.cards.cardsOfPost(TEAM, post.id);
    expect(card?.slackChannel).toBe(slackChannel);
    const cards = callsOf(h, 'chat.postMessage').filter(
      (c) =>
        c.args.channel === slackChannel && blockText(c.args.blocks).includes(title) && c.response.ok === true,
    );
    expect(cards).toHaveLength(1);
  });

  it('a digest that finds the channel archived pauses instead of failing, and keeps its window', async () => {
    const { slackChannel, channel, digest } = await followedWithDigest();
    const grace = h.emulator.org().actAs(memberId(h, 'grace@example.com'));
    grace.createPost({ channel_id: channel, title: unique('For the digest'), content_markdown: 'News' });
    await h.bot.store.digests.setLastUntil(TEAM, digest.id, Date.now() - 7 * 86_400_000);
    const before = await h.bot.store.digests.lastUntil(TEAM, digest.id);
    h.slack.changeChannel(slackChannel, { archived: true });
    // The slot of the next weekday 09:00 UTC covers the post just made.
    const next = (await h.bot.schedules.get(digestId(digest.id)))?.next;
    const sent = await run(h, 'sendDigest', { teamId: TEAM, digestId: digest.id, slot: next! });
    expect(sent.state).toBe('completed');
    await expectPaused(slackChannel, digest, 'archived');
    expect(await h.bot.store.digests.lastUntil(TEAM, digest.id)).toBe(before);
    h.slack.changeChannel(slackChannel, { archived: false });
  });
});
