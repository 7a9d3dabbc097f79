/**
 * Channel feeds against the real worker, the emulator (people act through `actAs`), the Slack
 * stand-in and Redis. Polls are triggered by enqueuing `pollFeed` directly; the schedulers'
 * intervals are an hour, so only the immediate first tick of a scheduler runs on its own, and
 * the tests wait for it.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { movePollSchedulers } from '../../src/jobs/pollDispatch.ts';
import { schedulerId } from '../../src/jobs/schedules.ts';
import { createLogger } from '../../src/logger.ts';
import { startBot } from '../../src/runtime.ts';
import type { RecordedCall } from '../../src/sandbox/slack/index.ts';
import { keys } from '../../src/store/keys.ts';
import { type Harness, startHarness, TEAM } from '../support/harness.ts';
import { blockText, callsOf, memberId, originOf, responseTexts, run, unique } from './helpers.ts';

const HOUR = '3600000';

describe('channel feeds', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { FEED_POLL_INTERVAL_MS: HOUR } });
  });
  afterAll(() => h.close());

  const person = (email: string) => h.emulator.org().actAs(memberId(h, email));
  const ada = () => person('ada@example.com');
  const grace = () => person('grace@example.com');
  const feedId = (slackChannel: string) => schedulerId(TEAM, 'feed', slackChannel);

  /** A Slack channel linked to a fresh collaboration channel of its own (so other tests' posts stay out). */
  async function linked(): Promise<{ slackChannel: string; channel: string }> {
    const name = `feed-${randomBytes(3).toString('hex')}`;
    const channel = h.emulator.org().addChannel(name, new Date(Date.now() - 86_400_000)).id;
    const slackChannel = `C_${name.replace('-', '_').toUpperCase()}`;
    const origin = originOf(h, { slackChannel });
    expect(
      (await run(h, 'linkChannel', { origin, channel: { id: channel }, bridgeReplies: false })).state,
    ).toBe('completed');
    return { slackChannel, channel };
  }

  /** `/collab follow` in the Slack channel; answers once the scheduler's immediate first tick is done. */
  async function follow(slackChannel: string) {
    const tick = h.nextSettled('pollFeed');
    const origin = originOf(h, { slackChannel });
    const ran = await run(h, 'followChannel', { origin });
    expect(ran.state).toBe('completed');
    expect((await tick).state).toBe('completed');
    return origin;
  }

  async function poll(slackChannel: string) {
    const ran = await run(h, 'pollFeed', { teamId: TEAM, slackChannel });
    expect(ran.state).toBe('completed');
    return ran;
  }

  const cardsIn = (slackChannel: string): RecordedCall[] =>
    callsOf(h, 'chat.postMessage').filter(
      (c) => c.args.channel === slackChannel && c.args.thread_ts === undefined,
    );
  const notesUnder = (card: { slackChannel: string; ts: string }): RecordedCall[] =>
    callsOf(h, 'chat.postMessage').filter(
      (c) => c.args.channel === card.slackChannel && c.args.thread_ts === card.ts,
    );
  const updatesOf = (card: { slackChannel: string; ts: string }): RecordedCall[] =>
    callsOf(h, 'chat.update').filter((c) => c.args.channel === card.slackChannel && c.args.ts === card.ts);

  /** A post made by a person in the service, carded by a poll of a followed channel. */
  async function cardedPost(slackChannel: string, channel: string) {
    const title = unique('Feed post');
    const post = grace().createPost({ channel_id: channel, title, content_markdown: `About ${title}` });
    await poll(slackChannel);
    const [card] = (await h.bot.store.cards.cardsOfPost(TEAM, post.id)).filter(
      (c) => c.slackChannel === slackChannel,
    );
    expect(card).toBeDefined();
    return { post, title, card: card! };
  }

  it('follow: a scheduler, nothing old posted; each new post gets one card, old ones none', async () => {
    const { slackChannel, channel } = await linked();
    const old = ada().createPost({
      channel_id: channel,
      title: unique('Old'),
      content_markdown: 'from before',
    });
    const origin = await follow(slackChannel);
    expect(responseTexts(h, origin).at(-1)).toMatch(/^:white_check_mark: Following #feed-/);
    expect((await h.bot.schedules.get(feedId(slackChannel)))?.every).toBe(Number(HOUR));
    expect(cardsIn(slackChannel)).toHaveLength(0);

    const title = unique('New');
    const fresh = grace().createPost({ channel_id: channel, title, content_markdown: 'just now' });
    ada().createComment(old.id, { content_markdown: 'activity on an old post' });
    await poll(slackChannel);

    const cards = cardsIn(slackChannel);
    expect(cards).toHaveLength(1);
    expect(blockText(cards[0]?.args.blocks)).toContain(title);
    const remembered = await h.bot.store.cards.cardsOfPost(TEAM, fresh.id);
    expect(remembered.map((c) => c.slackChannel)).toEqual([slackChannel]);
    expect(await h.bot.store.cards.cardsOfPost(TEAM, old.id)).toEqual([]);

    await poll(slackChannel);
    expect(cardsIn(slackChannel)).toHaveLength(1);
  });

  it('a quiet followed channel costs exactly one request per poll', async () => {
    const { slackChannel, channel } = await linked();
    grace().createPost({ channel_id: channel, title: unique('Quiet'), content_markdown: 'x' });
    await follow(slackChannel);
    for (let i = 0; i < 3; i++) {
      const before = h.emulator.received.length;
      await poll(slackChannel);
      const during = h.emulator.received.slice(before);
      expect(during.map((r) => r.route)).toEqual(['GET /v2/posts']);
      expect(during[0]?.query).toMatchObject({
        channel_id: channel,
        sort: 'last_activity_at',
        direction: 'desc',
      });
    }
  });

  it('a change made in the service updates the card in place, with one note in its thread', async () => {
    const { slackChannel, channel } = await linked();
    await follow(slackChannel);
    const { post, card } = await cardedPost(slackChannel, channel);

    ada().resolvePost(post.id, { content_markdown: 'Done in 2.3' });
    await poll(slackChannel);
    expect(updatesOf(card)).toHaveLength(1);
    expect(blockText(updatesOf(card)[0]?.args.blocks)).toContain('Resolved');
    expect(notesUnder(card).map((c) => c.args.text)).toEqual(['Resolved by *Ada Lovelace*']);

    grace().createComment(post.id, { content_markdown: 'one' });
    grace().createComment(post.id, { content_markdown: 'two' });
    await poll(slackChannel);
    grace().unresolvePost(post.id);
    await poll(slackChannel);
    await poll(slackChannel);
    expect(updatesOf(card)).toHaveLength(3);
    expect(notesUnder(card).map((c) => c.args.text)).toEqual([
      'Resolved by *Ada Lovelace*',
      '2 new comments',
      'Reopened',
    ]);
    expect(cardsIn(slackChannel)).toHaveLength(1);
  });

  it('a post resolved, then reopened, in the service updates its cards within two polls each', async () => {
    const { slackChannel, channel } = await linked();
    await follow(slackChannel);
    const { post, card } = await cardedPost(slackChannel, channel);
    const published = h.emulator.org().posts.get(post.id)?.last_activity_at;

    /** Polls (at most two) until the card shows `word`; answers how many polls it took. */
    async function pollsUntil(word: string): Promise<number> {
      for (let polls = 1; polls <= 2; polls++) {
        await poll(slackChannel);
        if (blockText(updatesOf(card).at(-1)?.args.blocks).includes(word)) return polls;
      }
      return Number.POSITIVE_INFINITY;
    }

    ada().resolvePost(post.id, {});
    // The service does not move last_activity_at on a resolution: no list walk can see it.
    expect(h.emulator.org().posts.get(post.id)?.last_activity_at).toBe(published);
    expect(await pollsUntil(':white_check_mark: *Resolved* by')).toBeLessThanOrEqual(2);
    expect(notesUnder(card).map((c) => c.args.text)).toEqual(['Resolved by *Ada Lovelace*']);

    grace().unresolvePost(post.id);
    expect(await pollsUntil('Open')).toBeLessThanOrEqual(2);
    expect(notesUnder(card).map((c) => c.args.text)).toEqual(['Resolved by *Ada Lovelace*', 'Reopened']);
    expect(cardsIn(slackChannel)).toHaveLength(1);
  });

  it('a quiet channel with N open carded posts costs 1 + N requests a poll (N up to the batch)', async () => {
    const { slackChannel, channel } = await linked();
    await follow(slackChannel);
    const carded = [];
    for (let i = 0; i < 3; i++) carded.push((await cardedPost(slackChannel, channel)).post.id);
    for (let i = 0; i < 2; i++) {
      const before = h.emulator.received.length;
      await poll(slackChannel);
      const during = h.emulator.received.slice(before);
      expect(during.map((r) => r.route).sort()).toEqual([
        'GET /v2/posts',
        'GET /v2/posts/{id}',
        'GET /v2/posts/{id}',
        'GET /v2/posts/{id}',
      ]);
      expect(
        during
          .filter((r) => r.route === 'GET /v2/posts/{id}')
          .map((r) => r.path.split('/').at(-1))
          .sort(),
      ).toEqual([...carded].sort());
    }
  });

  it("the bot's own change (a card's Resolve button) is not announced again", async () => {
    const { slackChannel, channel } = await linked();
    await follow(slackChannel);
    const { post, card } = await cardedPost(slackChannel, channel);

    const origin = originOf(h, { slackChannel, source: 'button' });
    expect((await run(h, 'resolvePost', { origin, post: { id: post.id }, card })).state).toBe('completed');
    expect(updatesOf(card)).toHaveLength(1);
    await poll(slackChannel);
    expect(updatesOf(card)).toHaveLength(1);
    expect(notesUnder(card)).toHaveLength(0);

    // A person's comment afterwards is news again.
    ada().createComment(post.id, { content_markdown: 'Confirmed' });
    await poll(slackChannel);
    expect(notesUnder(card).map((c) => c.args.text)).toEqual(['1 new comment']);
  });

  it('follow needs a link; unfollow and unlink remove the scheduler', async () => {
    const lonely = originOf(h, { slackChannel: 'C_NOT_LINKED' });
    expect((await run(h, 'followChannel', { origin: lonely })).state).toBe('failed');
    expect(responseTexts(h, lonely).at(-1)).toContain('not linked');
    expect(await h.bot.schedules.get(feedId('C_NOT_LINKED'))).toBeUndefined();

    const a = await linked();
    const b = await linked();
    await follow(a.slackChannel);
    await follow(b.slackChannel);
    const ids = async () => (await h.bot.schedules.list(`${TEAM}-feed-`)).map((s) => s.id);
    expect(await ids()).toEqual(expect.arrayContaining([feedId(a.slackChannel), feedId(b.slackChannel)]));

    const unfollowed = originOf(h, { slackChannel: a.slackChannel });
    expect((await run(h, 'unfollowChannel', { origin: unfollowed })).state).toBe('completed');
    expect(responseTexts(h, unfollowed).at(-1)).toMatch(/Stopped following/);
    expect(
      await run(h, 'unlinkChannel', { origin: originOf(h, { slackChannel: b.slackChannel }) }),
    ).toMatchObject({
      state: 'completed',
    });
    expect(await ids()).not.toContain(feedId(a.slackChannel));
    expect(await ids()).not.toContain(feedId(b.slackChannel));
    expect(await h.bot.store.feeds.get(TEAM, a.slackChannel)).toBeUndefined();
    expect(await h.bot.store.feeds.get(TEAM, b.slackChannel)).toBeUndefined();

    // A tick already queued for a feed that is gone posts nothing and costs nothing.
    const before = h.emulator.received.length;
    await poll(a.slackChannel);
    expect(h.emulator.received.length).toBe(before);
  });

  it('a feed scheduled as a job scheduler (before polls had their schedule) moves to the poll schedule', async () => {
    const { slackChannel } = await linked();
    const id = feedId(slackChannel);
    const queue = h.bot.queue.queue;
    // As the bot scheduled feeds before: one BullMQ job scheduler each (first tick in an hour).
    await queue.upsertJobScheduler(
      id,
      { every: Number(HOUR), startDate: Date.now() + Number(HOUR) },
      { name: 'pollFeed', data: { teamId: TEAM, slackChannel } },
    );
    expect(await queue.getJobScheduler(id)).toBeDefined();
    expect(await movePollSchedulers(h.bot.queue, h.bot.schedules)).toBeGreaterThanOrEqual(1);
    expect(await queue.getJobScheduler(id)).toBeUndefined();
    expect(await h.bot.schedules.get(id)).toMatchObject({ operation: 'pollFeed', every: Number(HOUR) });
    // Its next turn polls it, as the poll schedule's.
    expect(await movePollSchedulers(h.bot.queue, h.bot.schedules)).toBe(0);
  });

  it('never cards a post twice: not after a lost watermark, not across a restart, not in the crash window', async () => {
    const { slackChannel, channel } = await linked();
    await follow(slackChannel);
    const rewind = (await h.bot.store.feeds.get(TEAM, slackChannel))!;
    const { post } = await cardedPost(slackChannel, channel);
    expect(cardsIn(slackChannel)).toHaveLength(1);

    // The watermark was never saved (a crash after the card): the next poll sees the post again.
    await h.bot.store.feeds.save(TEAM, slackChannel, rewind);
    await poll(slackChannel);
    expect(cardsIn(slackChannel)).toHaveLength(1);

    // Two posts, then the crash window: a poll claimed both and started posting their cards, then
    // its worker died. The first card reached Slack and was remembered; the second is unknown.
    const posted = grace().createPost({
      channel_id: channel,
      title: unique('Posted'),
      content_markdown: 'a',
    });
    const unknown = grace().createPost({
      channel_id: channel,
      title: unique('Unknown'),
      content_markdown: 'b',
    });
    await h.worker?.close();
    const crashedKey = `crashed-${randomBytes(4).toString('hex')}`;
    // The crashed poll's job (no worker runs now), then what it left behind under its id.
    const enqueued = await h.bot.queue.enqueue(
      'pollFeed',
      { teamId: TEAM, slackChannel },
      { idempotencyKey: crashedKey },
    );
    expect(enqueued.status).toBe('queued');
    const { jobId } = enqueued;
    await h.bot.store.cards.rememberCard(TEAM, posted.id, { slackChannel, ts: '1700000000.000100' });
    for (const p of [posted, unknown]) {
      expect(await h.bot.store.feeds.claimCard(TEAM, slackChannel, p.id, jobId)).toBe('mine');
    }
    const job = await h.queue.getJob(jobId);
    await job?.updateProgress({
      steps: { [`card:${posted.id}:0`]: { started: true }, [`card:${unknown.id}:0`]: { started: true } },
    });

    // A second bot instance on the same Redis prefix picks the job up, and polls again later.
    const config = loadConfig({ ...h.peerEnv, ROLE: 'worker', LOG_LEVEL: 'silent' });
    const second = await startBot(config, createLogger({ level: 'silent' }));
    try {
      expect(await h.settled(jobId)).toBe('completed');
      await poll(slackChannel);
      await h.bot.store.feeds.save(TEAM, slackChannel, rewind);
      await poll(slackChannel);
    } finally {
      await second.stop();
    }
    expect(cardsIn(slackChannel)).toHaveLength(1);
    for (const p of [post, posted, unknown]) {
      expect(
        cardsIn(slackChannel).filter((c) => blockText(c.args.blocks).includes(p.title ?? '?')),
      ).toHaveLength(p === post ? 1 : 0);
    }
    // The card that may or may not have reached Slack is given up rather than risked twice.
    expect(
      await h.bot.store.redis.hget(keys(h.bot.store.space, TEAM).feedCarded(slackChannel), unknown.id),
    ).toBe('failed:uncertain');
  });
});
