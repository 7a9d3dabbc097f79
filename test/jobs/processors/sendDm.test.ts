import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultUsers, makeSlackUser } from '../../../src/sandbox/slack/index.ts';
import { type Harness, startHarness } from '../../support/harness.ts';
import {
  dmToNewThread,
  memberId,
  originOf,
  RARE_THREAD_POLLS,
  responseTexts,
  run,
  unique,
} from '../helpers.ts';

describe('sendDm', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: RARE_THREAD_POLLS,
      slackUsers: [
        ...defaultUsers(),
        makeSlackUser({ id: 'U_ALAN', name: 'alan', real_name: 'Alan Turing', email: 'Alan@Example.com' }),
        makeSlackUser({
          id: 'U_KATHERINE',
          name: 'kj',
          real_name: 'Katherine Johnson',
          email: 'katherine@example.com',
        }),
        makeSlackUser({
          id: 'U_EDSGER',
          name: 'edsger',
          real_name: 'Edsger Dijkstra',
          email: 'edsger@example.com',
        }),
        makeSlackUser({ id: 'U_NOEMAIL', name: 'noemail', real_name: 'No Email' }),
        makeSlackUser({
          id: 'U_CHARLES',
          name: 'charles',
          real_name: 'Charles Babbage',
          email: 'charles@example.com',
        }),
        makeSlackUser({ id: 'U_ZED', name: 'zed', real_name: 'Zed', email: 'zed@example.com' }),
      ],
    });
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  const threads = () => [...h.emulator.org().threads.values()];
  const messagesWith = (text: string) =>
    [...h.emulator.org().messages.values()].filter((m) => m.content_markdown.includes(text));

  it('makes a thread with the people named and the sender, sends the message, tells who got it', async () => {
    const origin = originOf(h);
    const text = unique('hello Grace');
    const { state } = await run(h, 'sendDm', { origin, slackUserIds: ['U_GRACE'], text });
    expect(state).toBe('completed');

    const ada = memberId(h, 'ada@example.com');
    const grace = memberId(h, 'grace@example.com');
    const [message] = messagesWith(text);
    expect(message?.content_markdown).toBe(`*Ada Lovelace* via Slack:\n${text}`);
    const thread = h.emulator.org().threads.get(message!.thread_id)!;
    expect(new Set(thread.member_ids)).toEqual(new Set([ada, grace]));
    expect(thread.title).toMatch(/^(Grace Hopper, Ada Lovelace|Ada Lovelace, Grace Hopper) \(from Slack\)$/);
    expect(await h.bot.store.threads.origin('T_LOCAL', thread.id)).toEqual({
      slackChannel: origin.slackChannel,
      createdBy: 'U_ADA',
      memberIds: thread.member_ids,
    });
    expect(responseTexts(h, origin)).toEqual([
      `:white_check_mark: Sent to Grace Hopper in thread \`${thread.id}\`.`,
    ]);
  });

  it('reuses the thread of the same people', async () => {
    const before = threads().length;
    const first = unique('one');
    const second = unique('two');
    await run(h, 'sendDm', { origin: originOf(h), slackUserIds: ['U_ALAN', 'U_KATHERINE'], text: first });
    await run(h, 'sendDm', { origin: originOf(h), slackUserIds: ['U_KATHERINE', 'U_ALAN'], text: second });
    expect(threads().length).toBe(before + 1);
    expect(messagesWith(first)[0]?.thread_id).toBe(messagesWith(second)[0]?.thread_id);
  });

  it('refuses, naming each person who cannot be reached and why', async () => {
    const origin = originOf(h);
    const text = unique('to nobody');
    const { state } = await run(h, 'sendDm', {
      origin,
      slackUserIds: ['U_GRACE', 'U_NOEMAIL', 'U_ZED', 'U_CHARLES', 'U_GHOST'],
      text,
    });
    expect(state).toBe('failed');
    expect(messagesWith(text)).toHaveLength(0);
    expect(responseTexts(h, origin)).toEqual([
      [
        ':warning: I could not send the message: not everyone you named is a member of the service.',
        '• <@U_NOEMAIL>: no email in their Slack profile',
        '• <@U_ZED>: no member with the email zed@example.com',
        // The service does not list deactivated members: to the bot they are not members.
        '• <@U_CHARLES>: no member with the email charles@example.com',
        '• <@U_GHOST>: not found in Slack',
      ].join('\n'),
    ]);
  });

  it('a remembered thread gone from the service: a new thread, the message sent once, the person told why', async () => {
    const gone = await dmToNewThread(h, ['U_EDSGER'], unique('before'));
    h.emulator.org().threads.delete(gone);

    const threadCreates = () => h.emulator.received.filter((r) => r.route === 'POST /v2/threads').length;
    const createsBefore = threadCreates();
    const origin = originOf(h);
    const text = unique('after');
    expect((await run(h, 'sendDm', { origin, slackUserIds: ['U_EDSGER'], text })).state).toBe('completed');
    const sent = messagesWith(text);
    expect(sent).toHaveLength(1);
    const made = sent[0]!.thread_id;
    expect(made).not.toBe(gone);
    expect(threadCreates()).toBe(createsBefore + 1);
    expect(responseTexts(h, origin)).toEqual([
      `:white_check_mark: Sent to Edsger Dijkstra in thread \`${made}\`. The earlier thread with the same people, \`${gone}\`, is gone from the service.`,
    ]);
    expect(await h.bot.store.threads.origin('T_LOCAL', gone)).toBeUndefined();

    // From now on the new thread is theirs.
    const again = unique('again');
    await run(h, 'sendDm', { origin: originOf(h), slackUserIds: ['U_EDSGER'], text: again });
    expect(messagesWith(again).map((m) => m.thread_id)).toEqual([made]);
    expect(threadCreates()).toBe(createsBefore + 1);
  });

  it('says so when the service added fewer people than asked', async () => {
    const edsger = memberId(h, 'edsger@example.com');
    // The member is deactivated between the bot's lookup and the thread's creation.
    const onRequest = (request: { route: string }) => {
      if (request.route !== 'POST /v2/threads') return;
      h.emulator.org().members.get(edsger)!.is_deactivated = true;
    };
    h.emulator.events.on('request', onRequest);
    const origin = originOf(h);
    try {
      const { state } = await run(h, 'sendDm', {
        origin,
        slackUserIds: ['U_GRACE', 'U_EDSGER'],
        text: unique('three of us'),
      });
      expect(state).toBe('completed');
    } finally {
      h.emulator.events.off('request', onRequest);
      h.emulator.org().members.get(edsger)!.is_deactivated = false;
    }
    expect(responseTexts(h, origin)[0]).toMatch(/ The service added 2 of the 3 people you named\.$/);
  });

  it('sends to a thread by id', async () => {
    const thread = threads()[0]!;
    const origin = originOf(h);
    const text = unique('to the thread');
    expect((await run(h, 'sendDm', { origin, threadId: thread.id, text })).state).toBe('completed');
    expect(messagesWith(text).map((m) => m.thread_id)).toEqual([thread.id]);
    expect(responseTexts(h, origin)).toEqual([`:white_check_mark: Sent to thread \`${thread.id}\`.`]);
  });

  it('a thread that does not exist', async () => {
    const origin = originOf(h);
    expect((await run(h, 'sendDm', { origin, threadId: 'thr_missing', text: 'x' })).state).toBe('failed');
    expect(responseTexts(h, origin)).toEqual([
      ":warning: No thread with id `thr_missing`. A thread's id is in the note of the `/collab dm` that started it.",
    ]);
  });

  it('a thread gone from the service, reached from a Slack thread: says so, forgets it, points to dm', async () => {
    const gone = await dmToNewThread(h, ['U_ALAN'], unique('first'));
    h.emulator.org().threads.delete(gone);

    const origin = originOf(h, { source: 'event' });
    expect((await run(h, 'sendDm', { origin, threadId: gone, text: 'x' })).state).toBe('failed');
    expect(responseTexts(h, origin)).toEqual([
      `:warning: The chat thread this conversation goes to, \`${gone}\`, is gone from the service, so your reply was not sent. To write to the same people, use \`/collab dm\`.`,
    ]);
    expect(await h.bot.store.threads.origin('T_LOCAL', gone)).toBeUndefined();

    // Forgotten: a DM to the same people makes a new thread, with nothing to explain.
    const next = originOf(h);
    const text = unique('new start');
    expect((await run(h, 'sendDm', { origin: next, slackUserIds: ['U_ALAN'], text })).state).toBe(
      'completed',
    );
    const made = messagesWith(text)[0]!.thread_id;
    expect(made).not.toBe(gone);
    expect(responseTexts(h, next)).toEqual([`:white_check_mark: Sent to Alan Turing in thread \`${made}\`.`]);
  });

  it('a Slack reply to a message gone from its thread: sent to the thread itself, and told so', async () => {
    const threadId = await dmToNewThread(h, ['U_KATHERINE'], unique('kept'));
    const origin = originOf(h, { source: 'event' });
    const text = unique('a reply');
    const ran = await run(h, 'sendDm', { origin, threadId, parentId: 'msg_gone', text });
    expect(ran.state).toBe('completed');
    expect(messagesWith(text).map((m) => [m.thread_id, m.parent_id])).toEqual([[threadId, null]]);
    expect(responseTexts(h, origin)).toEqual([
      `:white_check_mark: The message you replied to is gone from the service, so your reply went to its thread \`${threadId}\`.`,
    ]);
  });
});
