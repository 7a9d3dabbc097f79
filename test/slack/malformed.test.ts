/**
 * Validly signed but malformed Slack requests: each is answered at once with 400 and a log line,
 * never a crash (a signed `payload=null` used to kill the web role), never a 500, never Bolt's
 * 3 s hold and 404; and the role keeps serving (`/healthz`) after every one of them. A well-formed
 * request nothing is registered for is acked at once (200), not held.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS } from '../../src/render/ids.ts';
import { blockActions, viewSubmission } from '../../src/sandbox/slack/payloads.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { captureLogs, type LogCapture } from '../support/log-capture.ts';
import { postToBolt } from '../support/slack-client.ts';

let h: Harness;
let logs: LogCapture;

beforeAll(async () => {
  logs = captureLogs();
  h = await startHarness({ worker: false, logs });
});
afterAll(async () => {
  await h?.close();
});

const form = (payload: string) => new URLSearchParams({ payload }).toString();
const click = () =>
  blockActions({
    user: 'U_ADA',
    channel: 'C_GENERAL',
    message: { ts: '1700000000.000100' },
    actions: [{ action_id: ACTIONS.resolve, value: '{"p":"p1","v":"x"}' }],
  }) as unknown as Record<string, unknown>;
const without = (payload: Record<string, unknown>, field: string) => {
  const { [field]: _dropped, ...rest } = payload;
  return rest;
};
const submission = () =>
  viewSubmission({ user: 'U_ADA', view: { id: 'V1', callback_id: 'x' } }) as unknown as Record<
    string,
    unknown
  >;

/** [what, kind of request, raw body] */
const MALFORMED: Array<[string, 'interaction' | 'event', string]> = [
  ['payload=null', 'interaction', form('null')],
  ['JSON body null', 'event', 'null'],
  ['payload a number', 'interaction', form('42')],
  ['payload a string', 'interaction', form('"block_actions"')],
  ['payload an array', 'interaction', form('[{"type":"block_actions"}]')],
  ['JSON body an array', 'event', '[]'],
  ['empty object', 'interaction', form('{}')],
  ['unknown type', 'interaction', form('{"type":"no_such_type","user":{"id":"U_ADA"}}')],
  ['block_actions without user', 'interaction', form(JSON.stringify(without(click(), 'user')))],
  [
    'block_actions without team or user',
    'interaction',
    form(JSON.stringify(without(without(click(), 'team'), 'user'))),
  ],
  ['block_actions with user null', 'interaction', form(JSON.stringify({ ...click(), user: null }))],
  [
    'block_actions with actions a string',
    'interaction',
    form(JSON.stringify({ ...click(), actions: 'resolve' })),
  ],
  ['block_actions with actions an object', 'interaction', form(JSON.stringify({ ...click(), actions: {} }))],
  ['block_actions with no actions', 'interaction', form(JSON.stringify({ ...click(), actions: [] }))],
  ['block_actions with actions [null]', 'interaction', form(JSON.stringify({ ...click(), actions: [null] }))],
  ['block_actions with channel null', 'interaction', form(JSON.stringify({ ...click(), channel: null }))],
  ['type block_actions, no actions field', 'interaction', form(JSON.stringify(without(click(), 'actions')))],
  ['view_submission without view', 'interaction', form(JSON.stringify(without(submission(), 'view')))],
  ['view_submission with view null', 'interaction', form(JSON.stringify({ ...submission(), view: null }))],
  ['shortcut without user', 'interaction', form('{"type":"shortcut","callback_id":"new_post"}')],
  [
    'message_action without callback_id',
    'interaction',
    form('{"type":"message_action","user":{"id":"U_ADA"}}'),
  ],
  ['block_suggestion without user', 'interaction', form('{"type":"block_suggestion","action_id":"a"}')],
  ['legacy dialog_submission', 'interaction', form('{"type":"dialog_submission","user":{"id":"U_ADA"}}')],
  ['event that is not an object', 'event', '{"type":"event_callback","event":"message"}'],
  ['event without a type', 'event', '{"type":"event_callback","event":{"channel":"C1"}}'],
  ['event with channel null', 'event', '{"type":"event_callback","event":{"type":"message","channel":null}}'],
  [
    'event with authorizations [null]',
    'event',
    '{"type":"event_callback","authorizations":[null],"event":{"type":"message"}}',
  ],
  ['command not a string', 'interaction', 'command=%2Fcollab&command=%2Fother&team_id=T_LOCAL'],
];

const healthy = async () => (await fetch(`${h.baseUrl}/healthz`)).status;

describe('malformed signed requests', () => {
  it('a signed payload=null is refused with 400, and the role still answers /healthz', async () => {
    const answer = await postToBolt(h.baseUrl, h.signingSecret, 'interaction', form('null'));
    expect(answer.status).toBe(400);
    expect(await healthy()).toBe(200);
    // and it still serves Slack
    expect((await h.command('help')).status).toBe(200);
  });

  it.each(MALFORMED)('%s: 400 with a log line, and /healthz still answers', async (what, kind, raw) => {
    const before = logs.lines().filter((l) => l.msg === 'malformed Slack request refused').length;
    const answer = await postToBolt(h.baseUrl, h.signingSecret, kind, raw);
    expect(answer.status, what).toBe(400);
    const refused = logs.lines().filter((l) => l.msg === 'malformed Slack request refused');
    expect(refused.length).toBe(before + 1);
    expect(refused.at(-1)?.reason).toEqual(expect.any(String));
    expect(await healthy()).toBe(200);
  });

  it('refuses nothing unsigned as malformed: the signature is checked first (401)', async () => {
    const answer = await postToBolt(h.baseUrl, 'not-the-secret', 'interaction', form('null'));
    expect(answer.status).toBe(401);
  });

  it('acks at once (200, not a held 404) a well-formed request no listener is registered for', async () => {
    const unknownAction = { ...click(), actions: [{ action_id: 'no_such_action', type: 'button' }] };
    const answer = await postToBolt(
      h.baseUrl,
      h.signingSecret,
      'interaction',
      form(JSON.stringify(unknownAction)),
    );
    expect(answer.status).toBe(200);
    await logs.waitFor((l) => l.msg === 'no listener answered a Slack request; acked empty');
  });

  it('still answers Slack’s own checks: ssl_check and url_verification', async () => {
    const ssl = await fetch(`${h.baseUrl}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'ssl_check=1&token=x',
    });
    expect(ssl.status).toBe(200);
    const challenge = await postToBolt(
      h.baseUrl,
      h.signingSecret,
      'event',
      JSON.stringify({ type: 'url_verification', challenge: 'c-123', token: 'x' }),
    );
    expect(challenge.json()).toEqual({ challenge: 'c-123' });
  });
});
