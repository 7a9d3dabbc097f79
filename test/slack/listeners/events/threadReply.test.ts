/**
 * A mirrored chat thread in both directions, end to end: `sendDm` makes the thread; a person
 * answers in the service; the poll mirrors it into Slack; a Slack reply to the mirrored message
 * (a signed `message` event) goes back as a message with `parent_id`; the bot's own message is
 * never mirrored back, and the bot's own Slack messages never go anywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultUsers, makeSlackUser, messageEvent } from '../../../../src/sandbox/slack/index.ts';
import { blockText, callsOf, memberId, originOf, run, unique } from '../../../jobs/helpers.ts';
import { ADA, type Harness, startHarness, TEAM } from '../../../support/harness.ts';

const HOUR = '3600000';

describe('replies to mirrored chat messages', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { THREAD_POLL_ACTIVE_MS: HOUR, THREAD_POLL_IDLE_MS: HOUR },
      slackUsers: [
        ...defaultUsers(),
        makeSlackUser({ id: 'U_ALAN', name: 'alan', real_name: 'Alan Turing', email: 'alan@example.com' }),
      ],
    });
  });
  afterAll(() => h.close());

  const messages = () => [...h.emulator.org().messages.values()];

  /** `/collab dm @someone` from a Slack conversation (each test its own person: threads are per set of people). */
  async function mirroredThread(slackChannel: string, slackUserId: string, threadTs?: string) {
    const text = unique('Coffee?');
    const tick = h.nextSettled('pollThread');
    const origin = originOf(h, { slackChannel, ...(threadTs ? { threadTs } : {}) });
    expect((await run(h, 'sendDm', { origin, slackUserIds: [slackUserId], text })).state).toBe('completed');
    await tick;
    const threadId = messages().find((m) => m.content_markdown.includes(text))!.thread_id;
    return threadId;
  }

  async function poll(threadId: string) {
    expect((await run(h, 'pollThread', { teamId: TEAM, threadId })).state).toBe('completed');
  }

  it('goes back to the thread as an answer to the mirrored message, and is not mirrored back', async () => {
    const slackChannel = 'C_ROUND_TRIP';
    const threadId = await mirroredThread(slackChannel, 'U_GRACE');
    const grace = h.emulator.org().actAs(memberId(h, 'grace@example.com'));
    const question = grace.createMessage(threadId, { content_markdown: 'Which café?' });
    await poll(threadId);
    const mirrored = callsOf(h, 'chat.postMessage').find((c) => c.args.channel === slackChannel);
    expect(blockText(mirrored?.args.blocks)).toBe('*Grace Hopper*: Which café?');
    const mirroredTs = String(mirrored?.response.ts);

    // Ada answers in the Slack thread of the mirrored message.
    const sent = h.nextSettled('sendDm');
    const reply = messageEvent({
      channel: slackChannel,
      user: ADA,
      text: 'The one on *Main St*',
      thread_ts: mirroredTs,
    });
    expect((await h.event({ ...reply })).status).toBe(200);
    const { job, state } = await sent;
    expect(state).toBe('completed');
    expect(job.data).toMatchObject({
      threadId,
      parentId: question.id,
      origin: { source: 'event', userId: ADA },
    });

    const answer = messages().find((m) => m.thread_id === threadId && m.parent_id === question.id);
    expect(answer?.content_markdown).toBe('*Ada Lovelace* via Slack:\nThe one on **Main St**');
    expect(answer?.author?.type).toBe('app');
    // A reply from Slack is its own record there: nobody is told "sent" about it.
    expect(callsOf(h, 'chat.postEphemeral').filter((c) => c.args.channel === slackChannel)).toHaveLength(0);

    // The bot's own message comes back with the app author: never mirrored into Slack.
    await poll(threadId);
    const inChannel = callsOf(h, 'chat.postMessage').filter((c) => c.args.channel === slackChannel);
    expect(inChannel).toHaveLength(1);

    // The bot's own Slack message (the mirrored one, echoed as an event) goes nowhere.
    const before = messages().length;
    const echo = {
      ...messageEvent({ channel: slackChannel, user: 'U_BOT', text: 'echo', thread_ts: mirroredTs }),
      bot_id: 'B_LOCAL',
    };
    expect((await h.event(echo)).status).toBe(200);
    const marker = h.nextSettled('sendDm');
    await h.event({
      ...messageEvent({ channel: slackChannel, user: ADA, text: 'marker', thread_ts: mirroredTs }),
    });
    await marker;
    expect(messages().length).toBe(before + 1);
    expect(messages().at(-1)?.content_markdown).toContain('marker');
  });

  it('a reply in the Slack thread the DM came from goes to the chat thread, without a parent', async () => {
    const slackChannel = 'C_DM_THREAD';
    const threadTs = '1700000000.000777';
    const threadId = await mirroredThread(slackChannel, 'U_ALAN', threadTs);
    const sent = h.nextSettled('sendDm');
    const reply = messageEvent({
      channel: slackChannel,
      user: ADA,
      text: 'Also, bring the notes',
      thread_ts: threadTs,
    });
    expect((await h.event({ ...reply })).status).toBe(200);
    expect((await sent).state).toBe('completed');
    const answer = messages().find(
      (m) => m.thread_id === threadId && m.content_markdown.includes('bring the notes'),
    );
    expect(answer?.parent_id).toBeNull();
  });
});
