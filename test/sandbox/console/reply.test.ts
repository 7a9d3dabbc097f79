/**
 * The side panel's reply form: `POST /api/emulator/reply` writes a message in an emulator thread
 * as one of its members, through the emulator's control API, and tells the page (an SSE change).
 * No bot is needed: the console only forwards to the emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.ts';
import { type SandboxConsole, startConsole } from '../../../src/sandbox/console/server.ts';
import { type Emulator, startEmulator } from '../../../src/sandbox/emulator/index.ts';
import { type SlackStandIn, startSlackStandIn } from '../../../src/sandbox/slack/index.ts';

interface Thread {
  id: string;
  member_ids: string[];
}
interface State {
  threads: Thread[];
  members: Array<{ id: string; user: { display_name: string } }>;
  messages: Array<{ thread_id: string; content_markdown: string; author: { id: string; name: string } }>;
}

describe('console: reply in an emulator thread as one of its members', () => {
  let emulator: Emulator;
  let slack: SlackStandIn;
  let console: SandboxConsole;
  let noEmulator: SandboxConsole;

  beforeAll(async () => {
    emulator = await startEmulator({ seed: true });
    slack = await startSlackStandIn();
    const common = {
      slack,
      botUrl: 'http://127.0.0.1:9/slack/events',
      signingSecret: 'test-secret',
      command: '/collab',
      teamId: 'T_LOCAL',
      botUserId: 'U0COLLAB',
      users: [],
      channels: [],
      logger: createLogger({ level: 'silent' }),
    };
    console = await startConsole({ ...common, emulatorUrl: emulator.url, emulatorEvents: emulator.events });
    noEmulator = await startConsole(common);
  });

  afterAll(async () => {
    await console?.close();
    await noEmulator?.close();
    await slack?.close();
    await emulator?.close();
  });

  const state = async (): Promise<State> =>
    (await (await fetch(`${emulator.url}/_emulator/state`)).json()) as State;
  const reply = (target: SandboxConsole, body: unknown) =>
    fetch(`${target.url}/api/emulator/reply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('writes the message as that member and announces an emulator change', async () => {
    const before = await state();
    const thread = before.threads[0]!;
    const member = before.members.find((m) => m.id === thread.member_ids[0])!;

    const controller = new AbortController();
    const events = await fetch(`${console.url}/api/events`, { signal: controller.signal });
    const reader = events.body!.getReader();
    const decoder = new TextDecoder();
    const heard = (async () => {
      let seen = '';
      while (!seen.includes('"what":"emulator"')) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += decoder.decode(value);
      }
      return seen;
    })();

    const res = await reply(console, {
      user: 'U0ADA',
      threadId: thread.id,
      member: member.id,
      text: '  Noon works  ',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true });
    expect(await heard).toContain('"what":"emulator"');
    controller.abort();

    const after = await state();
    const written = after.messages.filter((m) => m.thread_id === thread.id).at(-1);
    expect(written).toMatchObject({
      content_markdown: 'Noon works',
      author: { id: member.id, name: member.user.display_name },
    });
  });

  it('answers 400 with the emulator’s reason for a member outside the thread', async () => {
    const { threads, members } = await state();
    const thread = threads[0]!;
    const outsider = members.find((m) => !thread.member_ids.includes(m.id))!;
    const res = await reply(console, { threadId: thread.id, member: outsider.id, text: 'hi' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: expect.stringContaining('not in thread') });
  });

  it('answers 400 for a malformed body, and without an emulator', async () => {
    const blank = await reply(console, { threadId: 'thr_x', member: 'mem_x', text: '   ' });
    expect(blank.status).toBe(400);
    expect(await blank.json()).toMatchObject({ ok: false, error: expect.stringContaining('text') });
    const missing = await reply(console, { text: 'hi' });
    expect(missing.status).toBe(400);

    const none = await reply(noEmulator, { threadId: 'thr_x', member: 'mem_x', text: 'hi' });
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({
      ok: false,
      error: expect.stringContaining('real collaboration API'),
    });
  });
});
