import { createHmac } from 'node:crypto';
import { type EnvelopedEvent, isValidSlackRequest } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { appHomeOpened, messageEvent } from '../../../src/sandbox/slack/payloads.ts';
import {
  eventBody,
  interactionBody,
  signSlackRequest,
  slashCommandBody,
} from '../../../src/sandbox/slack/sign.ts';

const SECRET = 'test-signing-secret';

type ParsedEnvelope = EnvelopedEvent<{ type: string; ts?: string; event_ts?: string }>;
const parseEnvelope = (body: string): ParsedEnvelope => JSON.parse(body) as ParsedEnvelope;

describe('signSlackRequest', () => {
  it('is v0= + hex HMAC-SHA256 of v0:{ts}:{body}, which Bolt verifies', () => {
    const body = 'a=1&b=two';
    const headers = signSlackRequest(SECRET, body, 1_700_000_000);
    const expected = createHmac('sha256', SECRET).update(`v0:1700000000:${body}`).digest('hex');
    expect(headers).toEqual({
      'x-slack-signature': `v0=${expected}`,
      'x-slack-request-timestamp': '1700000000',
    });

    const now = signSlackRequest(SECRET, body);
    const verify = (secret: string) =>
      isValidSlackRequest({
        signingSecret: secret,
        body,
        headers: {
          'x-slack-signature': now['x-slack-signature'],
          'x-slack-request-timestamp': Number(now['x-slack-request-timestamp']),
        },
      });
    expect(verify(SECRET)).toBe(true);
    expect(verify('another-secret')).toBe(false);
  });
});

describe('request bodies', () => {
  it('form-encodes a slash command with the fields Slack sends', () => {
    const body = slashCommandBody({
      command: '/collab',
      text: 'post hello & <world>',
      user_id: 'U_ADA',
      channel_id: 'C_GENERAL',
      team_id: 'T_LOCAL',
      response_url: 'http://127.0.0.1:1/response/x',
      trigger_id: '1.2.abc',
    });
    const fields = Object.fromEntries(new URLSearchParams(body));
    expect(fields).toMatchObject({
      command: '/collab',
      text: 'post hello & <world>',
      user_id: 'U_ADA',
      user_name: 'ada',
      channel_id: 'C_GENERAL',
      channel_name: 'general',
      team_id: 'T_LOCAL',
      team_domain: 'local',
      api_app_id: 'A_LOCAL',
      is_enterprise_install: 'false',
      response_url: 'http://127.0.0.1:1/response/x',
      trigger_id: '1.2.abc',
    });
    expect(fields.token).toBeTypeOf('string');
  });

  it('wraps an interaction payload as payload=<json>', () => {
    const payload = { type: 'block_actions', text: 'a+b & c=d' };
    const body = interactionBody(payload);
    expect(body.startsWith('payload=')).toBe(true);
    expect(JSON.parse(new URLSearchParams(body).get('payload') ?? '')).toEqual(payload);
  });

  it('wraps an event in an event_callback envelope with unique event ids', () => {
    const first = parseEnvelope(eventBody(messageEvent({ channel: 'C_GENERAL', user: 'U_ADA', text: 'hi' })));
    const second = parseEnvelope(eventBody(appHomeOpened({ user: 'U_ADA' }), { team_id: 'T_OTHER' }));
    expect(first).toMatchObject({
      type: 'event_callback',
      team_id: 'T_LOCAL',
      api_app_id: 'A_LOCAL',
      event: { type: 'message', channel: 'C_GENERAL', user: 'U_ADA', text: 'hi', channel_type: 'channel' },
      authorizations: [{ team_id: 'T_LOCAL', user_id: 'U_BOT', is_bot: true }],
    });
    expect(first.event.ts).toBe(first.event.event_ts);
    expect(first.event_time).toBeTypeOf('number');
    expect(second).toMatchObject({
      team_id: 'T_OTHER',
      event: { type: 'app_home_opened', channel: 'D_U_ADA' },
    });
    expect(second.event_id).not.toBe(first.event_id);
  });
});
