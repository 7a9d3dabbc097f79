/**
 * Redis unreachable for the queue: every surface still answers at once, says that nothing was
 * done, and never times out. The app is built as the bot builds it, with its queue on a Redis
 * that refuses connections, and driven through signed HTTP requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../../src/sandbox/emulator/index.ts';
import {
  blockActions,
  interactionBody,
  nextTs,
  type SlackStandIn,
  slashCommandBody,
  startSlackStandIn,
  viewSubmission,
} from '../../../src/sandbox/slack/index.ts';
import { ADA, SLACK_CHANNEL, TEAM } from '../../support/harness.ts';
import { postToBolt } from '../../support/slack-client.ts';
import { type BareApp, startBareApp, UNREACHABLE_REDIS_URL } from './bare-app.ts';
import type { AckBody } from './support.ts';

const QUEUE_DOWN =
  ":warning: I can't reach my job queue right now, so nothing was done. Try again in a minute.";

let slack: SlackStandIn;
let emulator: Emulator;
let app: BareApp;

beforeAll(async () => {
  slack = await startSlackStandIn();
  emulator = await startEmulator();
  app = await startBareApp({
    slack,
    collabUrl: emulator.url,
    collabKey: emulator.apiKey,
    queueRedisUrl: UNREACHABLE_REDIS_URL,
  });
});
afterAll(async () => {
  await app?.close();
  await emulator?.close();
  await slack?.close();
});

const command = (text: string, triggerId: string) =>
  postToBolt(
    app.baseUrl,
    app.signingSecret,
    'command',
    slashCommandBody({
      command: '/collab',
      text,
      user_id: ADA,
      channel_id: SLACK_CHANNEL,
      team_id: TEAM,
      response_url: slack.responseUrl(`down-${triggerId}`),
      trigger_id: triggerId,
    }),
  );

describe('with the queue unreachable', () => {
  it('a command answers ephemerally that nothing was done', async () => {
    const response = await command('resolve P_1', 'trig-down-1');
    expect(response.status).toBe(200);
    const ack = response.json<AckBody>();
    expect(ack.response_type).toBe('ephemeral');
    expect(ack.text).toBe(QUEUE_DOWN);
  });

  it('the same command tried again is not taken for a duplicate', async () => {
    await command('unlink', 'trig-down-2');
    const again = await command('unlink', 'trig-down-2');
    expect(again.json<AckBody>().text).toBe(QUEUE_DOWN);
  });

  it('help still works', async () => {
    const response = await command('help', 'trig-down-3');
    expect(response.json<AckBody>().text).toContain('How to use /collab');
  });

  it('a button acks and tells the person through the response url', async () => {
    const responseUrl = slack.responseUrl('down-button');
    const payload = blockActions({
      user: ADA,
      channel: SLACK_CHANNEL,
      message: { ts: nextTs(), text: 'card', bot_id: 'B_LOCAL' },
      actions: [{ action_id: 'post_resolve', value: JSON.stringify({ p: 'P_1', v: 'v1' }) }],
      response_url: responseUrl,
    });
    const response = await postToBolt(
      app.baseUrl,
      app.signingSecret,
      'interaction',
      interactionBody(payload),
    );
    expect(response.status).toBe(200);
    const told = await slack.waitFor(
      (c) => c.method === 'response_url' && c.path === '/response/down-button',
    );
    expect(told.args.text).toBe(QUEUE_DOWN);
  });

  it('a modal stays open with the error inline', async () => {
    const payload = viewSubmission({
      user: ADA,
      view: {
        id: 'V_DOWN',
        callback_id: 'comment_create',
        private_metadata: JSON.stringify({ slackChannel: SLACK_CHANNEL, postId: 'P_1' }),
        state: { values: { comment: { comment_input: { type: 'plain_text_input', value: 'hello' } } } },
      },
    });
    const response = await postToBolt(
      app.baseUrl,
      app.signingSecret,
      'interaction',
      interactionBody(payload),
    );
    expect(response.status).toBe(200);
    expect(response.json<AckBody>()).toEqual({
      response_action: 'errors',
      errors: {
        comment: "I can't reach my job queue right now, so nothing was done. Try again in a minute.",
      },
    });
  });
});
