/**
 * Thread mirroring against the real worker, the emulator (people write through `actAs`), the
 * Slack stand-in and Redis. `sendDm` makes the thread and starts its scheduler (whose immediate
 * first tick the tests wait for); later polls are triggered by enqueuing `pollThread` directly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THREAD_ACTIVE_WINDOW_MS } from '../../src/jobs/polling.ts';
import { schedulerId } from '../../src/jobs/schedules.ts';
import { defaultUsers, makeSlackUser, type RecordedCall } from '../../src/sandbox/slack/index.ts';
import { type Harness, startHarness, TEAM } from '../support/harness.ts';
import {
  blockText,
  callsOf,
  dmToNewThread,
  memberId,
  originOf,
  responseTexts,
  run,
  unique,
} from './helpers.ts';

const ACTIVE = 3_600_000;
const IDLE = 7_200_000;

describe('thread mirroring', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { THREAD_POLL_ACTIVE_MS: String(ACTIVE), THREAD_POLL_IDLE_MS: String(IDLE) },
      slackUsers: [
        ...defaultUsers(),
        makeSlackUser({ id: 'U_ALAN', name: 'alan', real_name: 'Alan Turing', email: 'alan@example.com' }),
        makeSlackUser({
          id: 'U_KJ',
          name: 'kj',
          real_name: 'Katherine Johnson',
          email: 'katherine@example.com',
        }),
        makeSlackUser({ id: 'U_ED', name: 'ed', real_name: 'Edsger Dijkstra', email: 'edsger@example.com' }),
      ],
    });
  });
  afterAll(() => h.close());

  const person = (email: string) => h.emulator.org().actAs(memberId(h, email));
  const threadSchedule = (threadId: string) => h.bot.schedules.get(schedulerId(TEAM, 'thread', threadId));
  const postedIn = (slackChannel: string): RecordedCall[] =>
    callsOf(h, 'chat.postMessage').filter((c) => c.args.channel === slackChannel);

  /** `/collab dm` from a Slack conversation; answers once the thread scheduler's first tick is done. */
  async function dm(slackChannel: string, slackUserId: string, options: { threadTs?: string } = {}) {
    const text = unique('Lunch?');
    const tick = h.nextSettled('pollThread');
    const origin = originOf(h, { slackChannel, ...(options.threadTs ? { threadTs: options.threadTs } : {}) });
    expect((await run(h, 'sendDm', { origin, slackUserIds: [slackUserId], text })).state).toBe('completed');
    expect((await tick).state).toBe('completed');
    const sent = [...h.emulator.org().messages.values()].find((m) => m.content_markdown.includes(text));
    if (!sent) throw new Error('the message was not sent');
    return { threadId: sent.thread_id, sent };
  }

  async function poll(threadId: string) {
    const ran = await run(h, 'pollThread', { teamId: TEAM, threadId });
    expect(ran.state).toBe('completed');
  }

  it("mirrors people's messages into the conversation, attributed, in order, once; never the bot's own", async () => {
    const slackChannel = 'C_MIRROR_A';
    const { threadId, sent } = await dm(slackChannel, 'U_GRACE');
    expect(await h.bot.store.mirrors.isSent(TEAM, threadId, sent.id)).toBe(true);
    expect(postedIn(slackChannel)).toHaveLength(0);

    const grace = person('grace@example.com');
    const first = grace.createMessage(threadId, { content_markdown: 'Sure, noon works' });
    // The bot writes in the thread too (another `/collab dm <thread>`): never mirrored back.
    expect(
      (await run(h, 'sendDm', { origin: originOf(h, { slackChannel }), threadId, text: 'See you' })).state,
    ).toBe('completed');
    const second = grace.createMessage(threadId, { content_markdown: 'I will book a table <!channel>' });
    await poll(threadId);

    const mirrored = postedIn(slackChannel);
    expect(mirrored.map((c) => blockText(c.args.blocks))).toEqual([
      '*Grace Hopper*: Sure, noon works',
      '*Grace Hopper*: I will book a table &lt;!channel&gt;',
    ]);
    expect(mirrored.every((c) => c.args.thread_ts === undefined)).toBe(true);
    expect(mirrored.some((c) => String(c.args.text).includes('via Slack'))).toBe(false);

    const way = await Promise.all(
      mirrored.map((c) => h.bot.store.mirrors.messageOf(TEAM, { slackChannel, ts: String(c.response.ts) })),
    );
    expect(way).toEqual([
      { threadId, messageId: first.id },
      { threadId, messageId: second.id },
    ]);

    await poll(threadId);
    expect(postedIn(slackChannel)).toHaveLength(2);
  });

  it('a quiet thread costs one request a poll; a lost watermark never mirrors twice', async () => {
    const { threadId } = await dm('C_MIRROR_B', 'U_ALAN');
    person('alan@example.com').createMessage(threadId, { content_markdown: 'Hello' });
    const rewind = (await h.bot.store.mirrors.get(TEAM, threadId))!.watermark;
    await poll(threadId);
    expect(postedIn('C_MIRROR_B')).toHaveLength(1);

    const before = h.emulator.received.length;
    await poll(threadId);
    expect(h.emulator.received.slice(before).map((r) => r.route)).toEqual([
      'GET /v2/threads/{thread_id}/messages',
    ]);

    await h.bot.store.mirrors.setWatermark(TEAM, threadId, rewind);
    await poll(threadId);
    expect(postedIn('C_MIRROR_B')).toHaveLength(1);
  });

  it("posts into the Slack thread the DM was sent from, and remembers that thread's way back", async () => {
    const threadTs = '1700000000.000300';
    const { threadId } = await dm('C_MIRROR_C', 'U_KJ', { threadTs });
    person('katherine@example.com').createMessage(threadId, { content_markdown: 'On it' });
    await poll(threadId);
    const [reply] = postedIn('C_MIRROR_C');
    expect(reply?.args.thread_ts).toBe(threadTs);
    expect(reply?.args.text).toBe('Katherine Johnson: On it');
    expect(
      await h.bot.store.mirrors.threadOfConversation(TEAM, { slackChannel: 'C_MIRROR_C', threadTs }),
    ).toBe(threadId);
  });

  it('polls often while the conversation is active, rarely once it is quiet', async () => {
    const { threadId } = await dm('C_MIRROR_D', 'U_ED');
    expect((await threadSchedule(threadId))?.every).toBe(ACTIVE);
    expect((await h.bot.store.mirrors.get(TEAM, threadId))?.interval).toBe('active');

    // Nothing for longer than the active window: the scheduler is upserted with the idle interval.
    await h.bot.store.mirrors.touch(TEAM, threadId, Date.now() - THREAD_ACTIVE_WINDOW_MS - 1000);
    await poll(threadId);
    expect((await threadSchedule(threadId))?.every).toBe(IDLE);
    expect((await h.bot.store.mirrors.get(TEAM, threadId))?.interval).toBe('idle');

    // Someone writes: active again.
    person('edsger@example.com').createMessage(threadId, { content_markdown: 'Back from holidays' });
    await poll(threadId);
    expect((await threadSchedule(threadId))?.every).toBe(ACTIVE);
    expect((await h.bot.store.mirrors.get(TEAM, threadId))?.interval).toBe('active');
    // BullMQ would keep the idle schedule's offset (and delay late ticks by up to the idle
    // interval): a changed interval starts a fresh scheduler.
    const offset = await h.bot.store.redis.hget(
      `${h.prefix}:operations:repeat:${schedulerId(TEAM, 'thread', threadId)}`,
      'offset',
    );
    expect(Number(offset ?? 0)).toBeLessThan(ACTIVE);
    expect(postedIn('C_MIRROR_D').map((c) => c.args.text)).toEqual(['Edsger Dijkstra: Back from holidays']);
  });

  it('a thread gone from the service: its polling stops, and a DM to the same people makes a new one', async () => {
    const people = ['U_ALAN', 'U_ED'];
    const from = () => originOf(h, { slackChannel: 'C_MIRROR_E' });
    const gone = await dmToNewThread(h, people, unique('Review?'), from());
    h.emulator.org().threads.delete(gone);
    await poll(gone);
    expect(await threadSchedule(gone)).toBeUndefined();

    const origin = from();
    const threadId = await dmToNewThread(h, people, unique('Still on?'), origin);
    expect(threadId).not.toBe(gone);
    // Forgotten by the poll already: nothing failed on the way, so nothing to explain.
    expect(responseTexts(h, origin)).toEqual([
      `:white_check_mark: Sent to Alan Turing and Edsger Dijkstra in thread \`${threadId}\`.`,
    ]);
  });

  it('a thread without a Slack origin has nowhere to go: its scheduler is removed', async () => {
    const alan = person('alan@example.com');
    const thread = alan.createThread({
      member_ids: [memberId(h, 'ada@example.com')],
      title: 'not from Slack',
    });
    await h.bot.schedules.upsert(schedulerId(TEAM, 'thread', thread.id), { everyMs: IDLE }, 'pollThread', {
      teamId: TEAM,
      threadId: thread.id,
    });
    await poll(thread.id);
    expect(await threadSchedule(thread.id)).toBeUndefined();
  });
});
