import { App, type BlockSuggestion, LogLevel, type ViewSubmitAction } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  appHomeOpened,
  appUninstalled,
  blockActions,
  blockSuggestion,
  linkShared,
  messageEvent,
  messageShortcut,
  tokensRevoked,
  urlVerification,
  viewSubmission,
} from '../../../src/sandbox/slack/payloads.ts';
import { startSlackStandIn } from '../../../src/sandbox/slack/server.ts';
import {
  eventBody,
  interactionBody,
  signSlackRequest,
  slashCommandBody,
} from '../../../src/sandbox/slack/sign.ts';
import type { SlackStandIn } from '../../../src/sandbox/slack/types.ts';
import { boltBaseUrl, postToBolt } from '../../support/slack-client.ts';

const SIGNING_SECRET = 'test-signing-secret';

/** A promise a listener resolves: the test waits on the event, never on time. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

let standIn: SlackStandIn;
let app: App;
let baseUrl: string;

const seen = {
  message: deferred<{ text?: string; thread_ts?: string }>(),
  uninstalled: deferred<string>(),
  revoked: deferred<string[]>(),
  submission: deferred<ViewSubmitAction>(),
};

beforeAll(async () => {
  standIn = await startSlackStandIn();
  app = new App({
    signingSecret: SIGNING_SECRET,
    token: 'xoxb-test-local',
    botId: 'B_LOCAL',
    botUserId: 'U_BOT',
    logLevel: LogLevel.ERROR,
    clientOptions: {
      slackApiUrl: standIn.url,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      timeout: 5000,
    },
  });

  app.command('/collab', async ({ command, ack, client, respond }) => {
    await ack();
    await client.chat.postMessage({ channel: command.channel_id, text: `you said: ${command.text}` });
    await respond({ response_type: 'ephemeral', text: 'posted' });
  });
  app.action('resolve_post', async ({ ack, respond, body }) => {
    await ack();
    await respond({ replace_original: true, text: `resolved by ${body.user.id}` });
  });
  app.shortcut('comment_on_message', async ({ ack, client, shortcut }) => {
    await ack();
    await client.views.open({
      trigger_id: shortcut.trigger_id,
      view: {
        type: 'modal',
        callback_id: 'comment',
        title: { type: 'plain_text', text: 'Comment' },
        private_metadata: shortcut.type === 'message_action' ? shortcut.message_ts : '',
        blocks: [],
      },
    });
  });
  app.view('comment', async ({ ack, body }) => {
    if (body.type === 'view_submission') seen.submission.resolve(body);
    await ack({ response_action: 'errors', errors: { body: 'Say something' } });
  });
  app.options('member_picker', async ({ ack, body }) => {
    const suggestion = body as BlockSuggestion;
    await ack({
      options: [{ text: { type: 'plain_text', text: `match ${suggestion.value}` }, value: 'M1' }],
    });
  });
  app.message(async ({ message }) => {
    if (message.subtype === undefined)
      seen.message.resolve({ text: message.text, thread_ts: message.thread_ts });
  });
  app.event('app_home_opened', async ({ event, client }) => {
    await client.views.publish({ user_id: event.user, view: { type: 'home', blocks: [] } });
  });
  app.event('link_shared', async ({ event, client }) => {
    await client.chat.unfurl({
      channel: event.channel,
      ts: event.message_ts,
      unfurls: Object.fromEntries(event.links.map((l) => [l.url, { blocks: [] }])),
    });
  });
  app.event('app_uninstalled', async ({ body }) => {
    seen.uninstalled.resolve(body.team_id);
  });
  app.event('tokens_revoked', async ({ event }) => {
    seen.revoked.resolve(event.tokens.bot ?? []);
  });

  // Bolt 5's default HTTPReceiver: start(0) resolves with the listening http.Server.
  baseUrl = boltBaseUrl(await app.start(0));
});

afterAll(async () => {
  await app.stop();
  await standIn.close();
});

beforeEach(() => {
  standIn.reset();
});

describe('a Bolt app pointed at the stand-in, driven by signed requests', () => {
  it('acks a signed slash command, and its listener reaches the stand-in and the response_url', async () => {
    const responseUrl = standIn.responseUrl('cmd');
    const body = slashCommandBody({
      command: '/collab',
      text: 'hello',
      user_id: 'U_ADA',
      channel_id: 'C_GENERAL',
      team_id: 'T_LOCAL',
      response_url: responseUrl,
      trigger_id: '1.2.abc',
    });
    const response = await postToBolt(baseUrl, SIGNING_SECRET, 'command', body);
    expect(response.status).toBe(200);

    const posted = await standIn.waitFor((c) => c.method === 'chat.postMessage');
    expect(posted).toMatchObject({
      token: 'xoxb-test-local',
      args: { channel: 'C_GENERAL', text: 'you said: hello' },
    });
    expect(standIn.messages.get('C_GENERAL')?.[0]?.text).toBe('you said: hello');
    const responded = await standIn.waitFor((c) => c.method === 'response_url');
    expect(responded).toMatchObject({
      path: '/response/cmd',
      args: { response_type: 'ephemeral', text: 'posted' },
    });
    // botId and botUserId were given: Bolt never asked auth.test
    expect(standIn.calls.map((c) => c.method)).not.toContain('auth.test');
  });

  it('rejects a badly signed request and a stale one with 401, reaching no listener', async () => {
    const body = slashCommandBody({
      command: '/collab',
      text: 'forged',
      user_id: 'U_ADA',
      channel_id: 'C_GENERAL',
      team_id: 'T_LOCAL',
      response_url: standIn.responseUrl(),
      trigger_id: '1.2.abc',
    });
    const forged = await postToBolt(baseUrl, 'not-the-secret', 'command', body);
    expect(forged.status).toBe(401);
    const stale = await postToBolt(
      baseUrl,
      SIGNING_SECRET,
      'command',
      body,
      signSlackRequest(SIGNING_SECRET, body, Math.floor(Date.now() / 1000) - 10 * 60),
    );
    expect(stale.status).toBe(401);
    expect(standIn.calls).toEqual([]);
  });

  it('routes block_actions to the action listener, whose respond() hits the response_url', async () => {
    const message = standIn.seedMessage('C_GENERAL', { user: 'U_ADA', text: 'a post' });
    const payload = blockActions({
      user: 'U_GRACE',
      channel: 'C_GENERAL',
      message,
      actions: [{ action_id: 'resolve_post', value: 'post-1' }],
      response_url: standIn.responseUrl('act'),
    });
    expect(payload.container).toMatchObject({
      type: 'message',
      message_ts: message.ts,
      channel_id: 'C_GENERAL',
    });
    const response = await postToBolt(baseUrl, SIGNING_SECRET, 'interaction', interactionBody(payload));
    expect(response.status).toBe(200);
    const responded = await standIn.waitFor((c) => c.path === '/response/act');
    expect(responded.args).toEqual({ replace_original: true, text: 'resolved by U_GRACE' });
  });

  it('routes a message shortcut whose listener opens a modal with the trigger_id', async () => {
    const message = standIn.seedMessage('C_GENERAL', { user: 'U_ADA', text: 'a post' });
    const payload = messageShortcut({
      callback_id: 'comment_on_message',
      user: 'U_ADA',
      channel: 'C_GENERAL',
      message,
      trigger_id: '9.9.shortcut',
      response_url: standIn.responseUrl(),
    });
    expect((await postToBolt(baseUrl, SIGNING_SECRET, 'interaction', interactionBody(payload))).status).toBe(
      200,
    );
    const opened = await standIn.waitFor((c) => c.method === 'views.open');
    expect(opened.args).toMatchObject({ trigger_id: '9.9.shortcut', view: { private_metadata: message.ts } });
    const stored = [...standIn.views.byId.values()][0];
    expect(stored?.view.callback_id).toBe('comment');
    // a view the stand-in holds is a valid input of the payload builders
    const submission = viewSubmission({ user: 'U_ADA', view: stored!.view });
    expect(submission.view).toMatchObject({
      id: stored?.view.id,
      callback_id: 'comment',
      private_metadata: message.ts,
    });
  });

  it('answers a view_submission with the ack body (response_action errors)', async () => {
    const payload = viewSubmission({
      user: 'U_ADA',
      view: {
        id: 'V_SUBMIT',
        callback_id: 'comment',
        private_metadata: 'meta',
        state: { values: { body: { text: { type: 'plain_text_input', value: '' } } } },
      },
    });
    const response = await postToBolt(baseUrl, SIGNING_SECRET, 'interaction', interactionBody(payload));
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ response_action: 'errors', errors: { body: 'Say something' } });
    const body = await seen.submission.promise;
    expect(body.view).toMatchObject({ id: 'V_SUBMIT', private_metadata: 'meta', state: payload.view.state });
  });

  it('answers a block_suggestion with the options of the ack', async () => {
    const payload = blockSuggestion({
      action_id: 'member_picker',
      block_id: 'assignee',
      value: 'gra',
      user: 'U_ADA',
      view: { id: 'V_PICK', callback_id: 'new_post' },
    });
    const response = await postToBolt(baseUrl, SIGNING_SECRET, 'interaction', interactionBody(payload));
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({
      options: [{ text: { type: 'plain_text', text: 'match gra' }, value: 'M1' }],
    });
  });

  it('delivers events: a thread message, app_home_opened, link_shared, app_uninstalled, tokens_revoked', async () => {
    const parentTs = '1700000000.000001';
    const send = (event: { type: string }) => postToBolt(baseUrl, SIGNING_SECRET, 'event', eventBody(event));

    expect(
      (await send(messageEvent({ channel: 'C_GENERAL', user: 'U_ADA', text: 'reply', thread_ts: parentTs })))
        .status,
    ).toBe(200);
    await expect(seen.message.promise).resolves.toEqual({ text: 'reply', thread_ts: parentTs });

    await send(appHomeOpened({ user: 'U_GRACE' }));
    await standIn.waitFor((c) => c.method === 'views.publish');
    expect(standIn.views.home.get('U_GRACE')?.view.type).toBe('home');

    const posted = standIn.seedMessage('C_GENERAL', {
      user: 'U_ADA',
      text: 'see https://collab.example/p/1',
    });
    await send(
      linkShared({
        channel: 'C_GENERAL',
        user: 'U_ADA',
        message_ts: posted.ts,
        links: ['https://collab.example/p/1'],
      }),
    );
    const unfurl = await standIn.waitFor((c) => c.method === 'chat.unfurl');
    expect(unfurl.args.unfurls).toEqual({ 'https://collab.example/p/1': { blocks: [] } });
    expect(posted.unfurls).toEqual({ 'https://collab.example/p/1': { blocks: [] } });

    await send(appUninstalled());
    await expect(seen.uninstalled.promise).resolves.toBe('T_LOCAL');
    await send(tokensRevoked({ bot: ['U_BOT'] }));
    await expect(seen.revoked.promise).resolves.toEqual(['U_BOT']);
  });

  it('echoes the url_verification challenge', async () => {
    const handshake = urlVerification('challenge-123');
    const response = await postToBolt(baseUrl, SIGNING_SECRET, 'event', JSON.stringify(handshake));
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ challenge: 'challenge-123' });
  });
});
