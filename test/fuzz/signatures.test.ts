/**
 * Request signatures, for every kind of request Slack sends (commands, interactivity, events):
 * a wrong secret, a stale timestamp, an altered body, a missing or malformed header
 * are all refused with 401 and reach no listener: nothing is enqueued, Slack is not called.
 * (The command listener's own tests cover a wrong secret and a stale timestamp for commands.)
 * Not covered, because Bolt accepts it: a timestamp in the future (Bolt 5 only refuses timestamps
 * older than five minutes). Forging one still needs the signing secret.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventBody,
  interactionBody,
  signSlackRequest,
  slashCommandBody,
} from '../../src/sandbox/slack/index.ts';
import { expectNothingQueued, resetHarness, startWebHarness } from '../slack/listeners/support.ts';
import { ADA, type Harness, SLACK_CHANNEL, TEAM } from '../support/harness.ts';
import type { SlackRequestKind } from '../support/slack-client.ts';

let h: Harness;
beforeAll(async () => {
  h = await startWebHarness();
});
afterAll(async () => {
  await h?.close();
});

const CONTENT_TYPES: Record<SlackRequestKind, string> = {
  command: 'application/x-www-form-urlencoded',
  interaction: 'application/x-www-form-urlencoded',
  event: 'application/json',
};

/** A request that, signed properly, would enqueue a job. */
function bodyOf(kind: SlackRequestKind): string {
  const trigger = `sig-${randomBytes(6).toString('hex')}`;
  switch (kind) {
    case 'command':
      return slashCommandBody({
        command: '/collab',
        text: 'resolve pst_1 done',
        user_id: ADA,
        channel_id: SLACK_CHANNEL,
        team_id: TEAM,
        response_url: h.slack.responseUrl(),
        trigger_id: trigger,
      });
    case 'interaction':
      return interactionBody({
        type: 'block_actions',
        team: { id: TEAM },
        user: { id: ADA },
        trigger_id: trigger,
        response_url: h.slack.responseUrl(),
        channel: { id: SLACK_CHANNEL },
        container: { type: 'message', channel_id: SLACK_CHANNEL, message_ts: '1.000100' },
        message: { ts: '1.000100' },
        actions: [
          {
            type: 'button',
            action_id: 'post_resolve',
            block_id: 'b',
            value: JSON.stringify({ postId: 'pst_1' }),
          },
        ],
      });
    case 'event':
      return eventBody(
        { type: 'app_home_opened', user: ADA, channel: 'D_ADA', tab: 'home' } as { type: string },
        { team_id: TEAM },
      );
  }
}

const now = () => Math.floor(Date.now() / 1000);
const hmac = (secret: string, ts: number | string, body: string) =>
  `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`;

type Forgery = (body: string) => { body: string; headers: Record<string, string> };

const FORGERIES: Record<string, Forgery> = {
  'a wrong secret': (body) => ({ body, headers: { ...signSlackRequest('not-the-secret', body) } }),
  'a stale timestamp (10 minutes old)': (body) => ({
    body,
    headers: { ...signSlackRequest(h.signingSecret, body, now() - 600) },
  }),
  'an altered body': (body) => ({
    body: `${body}&x=1`,
    headers: { ...signSlackRequest(h.signingSecret, body) },
  }),
  'no signature header': (body) => ({ body, headers: { 'x-slack-request-timestamp': String(now()) } }),
  'no timestamp header': (body) => ({
    body,
    headers: { 'x-slack-signature': hmac(h.signingSecret, now(), body) },
  }),
  'no headers at all': (body) => ({ body, headers: {} }),
  'a signature without the v0= prefix': (body) => ({
    body,
    headers: {
      'x-slack-signature': hmac(h.signingSecret, now(), body).slice(3),
      'x-slack-request-timestamp': String(now()),
    },
  }),
  'a non-numeric timestamp': (body) => ({
    body,
    headers: { 'x-slack-signature': hmac(h.signingSecret, 'abc', body), 'x-slack-request-timestamp': 'abc' },
  }),
};

describe.each(['command', 'interaction', 'event'] as const)('a %s', (kind) => {
  it.each(Object.keys(FORGERIES))('with %s is refused with 401 and reaches no listener', async (name) => {
    await resetHarness(h);
    const forged = FORGERIES[name]!(bodyOf(kind));
    const response = await fetch(`${h.baseUrl}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': CONTENT_TYPES[kind], ...forged.headers },
      body: forged.body,
    });
    await response.text();
    expect(response.status).toBe(401);
    await expectNothingQueued(h);
    expect(h.slack.calls.map((c) => c.method)).toEqual([]);
  });

  it('signed properly, is accepted (the forgeries above differ from it in one thing only)', async () => {
    const body = bodyOf(kind);
    const response = await fetch(`${h.baseUrl}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': CONTENT_TYPES[kind], ...signSlackRequest(h.signingSecret, body) },
      body,
    });
    await response.text();
    expect(response.status).toBe(200);
  });
});
