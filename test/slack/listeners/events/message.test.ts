/**
 * Thread replies under post cards, through signed Events API requests. Bolt acks events before
 * the listener runs, so the tests wait on the queue's own `added` event, never on time. To show
 * that an event enqueued nothing, a bridged reply is sent after it as a marker: the listener
 * handles events in order on one Redis connection, so anything the first one enqueued would be
 * in the queue by the time the marker's job is.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { messageEvent, nextTs } from '../../../../src/sandbox/slack/index.ts';
import { ADA, type Harness, TEAM } from '../../../support/harness.ts';
import { jobIdOf, queuedJobs, useWebHarness } from '../support.ts';

let h: Harness;
useWebHarness((started) => {
  h = started;
});

const BRIDGED = 'C_BRIDGED';
const QUIET = 'C_QUIET';

async function link(slackChannel: string, bridgeReplies: boolean) {
  await h.bot.store.links.set(TEAM, slackChannel, {
    channelId: `CH_${slackChannel}`,
    channelName: slackChannel.toLowerCase(),
    bridgeReplies,
    linkedBy: ADA,
    linkedAt: new Date().toISOString(),
  });
}

/** A post card in a Slack channel: answers its ts. */
async function card(slackChannel: string, postId: string): Promise<string> {
  const ts = nextTs();
  await h.bot.store.cards.rememberCard(TEAM, postId, { slackChannel, ts });
  return ts;
}

/** Resolves with the id of the next job added to the queue. */
function nextAdded(): Promise<string> {
  return new Promise((resolve) => {
    const onAdded = ({ jobId }: { jobId: string }) => {
      h.queueEvents.off('added', onAdded);
      resolve(jobId);
    };
    h.queueEvents.on('added', onAdded);
  });
}

/** A signed event; the payload builders' interfaces are plain records on the wire. */
function send(event: object, options: { eventId: string; retryNum?: number }) {
  return h.event({ ...event }, options);
}

const eventId = () => `Ev${randomBytes(5).toString('hex').toUpperCase()}`;

/** A bridged reply after the event under test; answers once its job is in the queue. */
async function marker(): Promise<string> {
  const cardTs = await card(BRIDGED, 'P_MARK');
  const added = nextAdded();
  const reply = messageEvent({ channel: BRIDGED, user: ADA, text: 'marker', thread_ts: cardTs });
  expect((await send(reply, { eventId: eventId() })).status).toBe(200);
  const jobId = await added;
  expect(jobId).toBe(await jobIdOf(h, `evt:${BRIDGED}:${reply.ts}`));
  return jobId;
}

beforeAll(async () => {
  await link(BRIDGED, true);
  await link(QUIET, false);
});

describe('a reply under a post card in a channel linked with replies', () => {
  it('becomes a createComment job, its text converted to markdown', async () => {
    const cardTs = await card(BRIDGED, 'P_E1');
    const reply = messageEvent({
      channel: BRIDGED,
      user: ADA,
      text: 'Thanks <@U_GRACE>, *done* &amp; dusted',
      thread_ts: cardTs,
    });
    const added = nextAdded();
    const response = await send(reply, { eventId: eventId() });
    expect(response.status).toBe(200);
    const jobId = await added;

    const jobs = await queuedJobs(h);
    expect(jobs.map((job) => job.id)).toEqual([jobId]);
    const job = jobs[0]!;
    expect(job.name).toBe('createComment');
    expect(job.id).toBe(await jobIdOf(h, `evt:${BRIDGED}:${reply.ts}`));
    expect(job.data).toEqual({
      origin: {
        teamId: TEAM,
        userId: ADA,
        slackChannel: BRIDGED,
        threadTs: cardTs,
        receivedAt: expect.any(Number),
        source: 'event',
      },
      post: { id: 'P_E1' },
      text: 'Thanks @Grace, **done** & dusted',
      reply: { slackChannel: BRIDGED, ts: reply.ts },
      card: { slackChannel: BRIDGED, ts: cardTs },
    });
  });

  it('a Slack retry of the same event enqueues nothing new', async () => {
    const cardTs = await card(BRIDGED, 'P_E2');
    const reply = messageEvent({ channel: BRIDGED, user: ADA, text: 'once only', thread_ts: cardTs });
    const id = eventId();
    const added = nextAdded();
    await send(reply, { eventId: id });
    const first = await added;
    const retry = await send(reply, { eventId: id, retryNum: 1 });
    expect(retry.status).toBe(200);
    const again = await send(reply, { eventId: id, retryNum: 2 });
    expect(again.status).toBe(200);
    const mark = await marker();
    expect((await queuedJobs(h)).map((job) => job.id).sort()).toEqual([first, mark].sort());
  });
});

describe('ignored, nothing enqueued', () => {
  const cases: Array<[string, (cardTs: string) => Record<string, unknown>]> = [
    ['a top-level message', () => messageEvent({ channel: BRIDGED, user: ADA, text: 'hi' })],
    [
      'a thread parent (thread_ts = ts)',
      (cardTs) => ({
        ...messageEvent({ channel: BRIDGED, user: ADA, text: 'hi', ts: cardTs }),
        thread_ts: cardTs,
      }),
    ],
    [
      'a bot message',
      (cardTs) => ({
        ...messageEvent({ channel: BRIDGED, user: 'U_OTHERBOT', text: 'beep', thread_ts: cardTs }),
        bot_id: 'B_OTHER',
      }),
    ],
    [
      'subtype bot_message',
      (cardTs) => ({
        ...messageEvent({ channel: BRIDGED, user: ADA, text: 'x', thread_ts: cardTs }),
        subtype: 'bot_message',
      }),
    ],
    [
      'an edit (message_changed)',
      (cardTs) => ({
        ...messageEvent({ channel: BRIDGED, user: ADA, text: 'x', thread_ts: cardTs }),
        subtype: 'message_changed',
      }),
    ],
    [
      'a deletion (message_deleted)',
      (cardTs) => ({
        ...messageEvent({ channel: BRIDGED, user: ADA, text: 'x', thread_ts: cardTs }),
        subtype: 'message_deleted',
      }),
    ],
    [
      'a channel join',
      (cardTs) => ({
        ...messageEvent({ channel: BRIDGED, user: ADA, text: 'joined', thread_ts: cardTs }),
        subtype: 'channel_join',
      }),
    ],
    [
      "the bot's own reply",
      (cardTs) => messageEvent({ channel: BRIDGED, user: 'U_BOT', text: 'x', thread_ts: cardTs }),
    ],
    [
      'a reply under a message that is not a card',
      () => messageEvent({ channel: BRIDGED, user: ADA, text: 'x', thread_ts: nextTs() }),
    ],
    [
      'an empty reply',
      (cardTs) => messageEvent({ channel: BRIDGED, user: ADA, text: '  ', thread_ts: cardTs }),
    ],
    [
      'a malformed event (no channel)',
      (cardTs) => {
        const { channel: _channel, ...rest } = messageEvent({
          channel: BRIDGED,
          user: ADA,
          text: 'x',
          thread_ts: cardTs,
        });
        return rest;
      },
    ],
  ];

  it.each(cases)('%s', async (_what, build) => {
    const cardTs = await card(BRIDGED, 'P_IGN');
    const response = await send(build(cardTs), { eventId: eventId() });
    expect(response.status).toBe(200);
    const mark = await marker();
    expect((await queuedJobs(h)).map((job) => job.id)).toEqual([mark]);
  });

  it('a reply under a card in a channel linked without replies', async () => {
    const cardTs = await card(QUIET, 'P_Q');
    await send(messageEvent({ channel: QUIET, user: ADA, text: 'x', thread_ts: cardTs }), {
      eventId: eventId(),
    });
    const mark = await marker();
    expect((await queuedJobs(h)).map((job) => job.id)).toEqual([mark]);
  });

  it('a reply under a card in a channel not linked at all', async () => {
    const cardTs = await card('C_NOLINK', 'P_N');
    await send(messageEvent({ channel: 'C_NOLINK', user: ADA, text: 'x', thread_ts: cardTs }), {
      eventId: eventId(),
    });
    const mark = await marker();
    expect((await queuedJobs(h)).map((job) => job.id)).toEqual([mark]);
  });
});
