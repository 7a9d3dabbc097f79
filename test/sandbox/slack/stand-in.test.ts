import {
  ErrorCode,
  LogLevel,
  type WebAPIPlatformError,
  type WebAPIRateLimitedError,
  WebClient,
} from '@slack/web-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSlackStandIn } from '../../../src/sandbox/slack/server.ts';
import type { SlackStandIn } from '../../../src/sandbox/slack/types.ts';

let standIn: SlackStandIn;
let client: WebClient;

beforeAll(async () => {
  standIn = await startSlackStandIn();
  client = new WebClient('xoxb-test-local', {
    slackApiUrl: standIn.url,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: 5000,
    logLevel: LogLevel.ERROR,
  });
});

afterAll(async () => {
  await standIn.close();
});

beforeEach(() => {
  standIn.reset();
});

async function platformError(promise: Promise<unknown>): Promise<WebAPIPlatformError> {
  const error: unknown = await promise.then(
    () => new Error('expected the call to fail'),
    (e: unknown) => e,
  );
  expect((error as { code?: string }).code).toBe(ErrorCode.PlatformError);
  return error as WebAPIPlatformError;
}

describe('Slack stand-in over HTTP with @slack/web-api', () => {
  it('serves its url with a trailing /api/', () => {
    expect(standIn.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
  });

  it('answers auth.test for the default installation and records the bearer token', async () => {
    const result = await client.auth.test();
    expect(result).toMatchObject({ ok: true, team_id: 'T_LOCAL', user_id: 'U_BOT', bot_id: 'B_LOCAL' });
    expect(standIn.calls[0]).toMatchObject({ method: 'auth.test', token: 'xoxb-test-local', status: 200 });
  });

  it('round-trips chat.postMessage → chat.update → chat.getPermalink, keeping state', async () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*hello*' } }];
    const posted = await client.chat.postMessage({ channel: 'C_GENERAL', text: 'hello', blocks });
    expect(posted).toMatchObject({
      ok: true,
      channel: 'C_GENERAL',
      message: { text: 'hello', bot_id: 'B_LOCAL' },
    });
    expect(posted.ts).toMatch(/^\d{10}\.\d{6}$/);

    // blocks were form-encoded JSON on the wire and are recorded parsed
    const call = standIn.calls.find((c) => c.method === 'chat.postMessage');
    expect(call?.args).toMatchObject({ channel: 'C_GENERAL', text: 'hello', blocks });

    const second = await client.chat.postMessage({ channel: 'C_GENERAL', text: 'second' });
    expect(Number(second.ts)).toBeGreaterThan(Number(posted.ts));

    const updated = await client.chat.update({ channel: 'C_GENERAL', ts: posted.ts!, text: 'hello, edited' });
    expect(updated).toMatchObject({ ok: true, channel: 'C_GENERAL', ts: posted.ts, text: 'hello, edited' });
    const stored = standIn.messages.get('C_GENERAL')?.find((m) => m.ts === posted.ts);
    expect(stored).toMatchObject({ text: 'hello, edited', blocks, edited: { user: 'U_BOT' } });

    const link = await client.chat.getPermalink({ channel: 'C_GENERAL', message_ts: posted.ts! });
    expect(link.permalink).toBe(`https://slack.example/archives/C_GENERAL/p${posted.ts!.replace('.', '')}`);

    await client.chat.delete({ channel: 'C_GENERAL', ts: second.ts! });
    expect(standIn.messages.get('C_GENERAL')?.map((m) => m.ts)).toEqual([posted.ts]);
  });

  it('rejects chat.update of an unknown ts with message_not_found', async () => {
    const error = await platformError(
      client.chat.update({ channel: 'C_GENERAL', ts: '1.000001', text: 'x' }),
    );
    expect(error.data.error).toBe('message_not_found');
  });

  it('threads replies and answers conversations.replies with parent first', async () => {
    const parent = standIn.seedMessage('C_GENERAL', { user: 'U_ADA', text: 'question' });
    const reply = await client.chat.postMessage({
      channel: 'C_GENERAL',
      thread_ts: parent.ts,
      text: 'answer',
    });
    const replies = await client.conversations.replies({ channel: 'C_GENERAL', ts: parent.ts });
    expect(replies.messages?.map((m) => m.text)).toEqual(['question', 'answer']);
    expect(replies.messages?.[0]).toMatchObject({ reply_count: 1, latest_reply: reply.ts });
    const link = await client.chat.getPermalink({ channel: 'C_GENERAL', message_ts: reply.ts! });
    expect(link.permalink).toContain(`?thread_ts=${parent.ts}&cid=C_GENERAL`);
    const error = await platformError(client.chat.update({ channel: 'C_GENERAL', ts: parent.ts, text: 'x' }));
    expect(error.data.error).toBe('cant_update_message');
  });

  it('stores chat.postEphemeral for one user and returns message_ts', async () => {
    const result = await client.chat.postEphemeral({
      channel: 'C_GENERAL',
      user: 'U_GRACE',
      text: 'only you',
    });
    expect(result.ok).toBe(true);
    expect(result.message_ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(standIn.messages.get('C_GENERAL')).toEqual([
      expect.objectContaining({ ts: result.message_ts, text: 'only you', ephemeralFor: 'U_GRACE' }),
    ]);
  });

  it('opens a DM with conversations.open and posts to a user id into it', async () => {
    const opened = await client.conversations.open({ users: 'U_ADA' });
    expect(opened.channel?.id).toBe('D_U_ADA');
    const posted = await client.chat.postMessage({ channel: 'U_ADA', text: 'psst' });
    expect(posted.channel).toBe('D_U_ADA');
    expect(standIn.messages.get('D_U_ADA')?.[0]?.text).toBe('psst');
  });

  it('answers conversations.info and conversations.join', async () => {
    const info = await client.conversations.info({ channel: 'C_GENERAL' });
    expect(info.channel).toMatchObject({ id: 'C_GENERAL', is_channel: true, is_member: true });
    const joined = await client.conversations.join({ channel: 'C_GENERAL' });
    expect(joined.ok).toBe(true);
    const dm = await platformError(client.conversations.join({ channel: 'D_U_ADA' }));
    expect(dm.data.error).toBe('method_not_supported_for_channel_type');
  });

  it('opens, updates and publishes views', async () => {
    const modal = {
      type: 'modal' as const,
      callback_id: 'new_post',
      private_metadata: '{"channel":"C_GENERAL"}',
      title: { type: 'plain_text' as const, text: 'New post' },
      blocks: [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text: 'loading…' } }],
    };
    const opened = await client.views.open({ trigger_id: '123.456.abc', view: modal });
    const viewId = opened.view?.id;
    expect(viewId).toMatch(/^V/);
    expect(opened.view).toMatchObject({
      callback_id: 'new_post',
      private_metadata: '{"channel":"C_GENERAL"}',
    });

    const updated = await client.views.update({
      view_id: viewId!,
      hash: opened.view?.hash,
      view: { ...modal, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'ready' } }] },
    });
    expect(updated.view?.id).toBe(viewId);
    expect(standIn.views.byId.get(viewId!)).toMatchObject({
      via: 'views.open',
      updates: 1,
      view: { blocks: [{ text: { text: 'ready' } }] },
    });

    const stale = await platformError(
      client.views.update({ view_id: viewId!, hash: opened.view?.hash, view: modal }),
    );
    expect(stale.data.error).toBe('hash_conflict');
    const missing = await platformError(client.views.update({ view_id: 'V_NOPE', view: modal }));
    expect(missing.data.error).toBe('not_found');
    const expired = await platformError(client.views.open({ trigger_id: 'expired', view: modal }));
    expect(expired.data.error).toBe('expired_trigger_id');

    const home = {
      type: 'home' as const,
      blocks: [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text: 'hi' } }],
    };
    const published = await client.views.publish({ user_id: 'U_ADA', view: home });
    const republished = await client.views.publish({ user_id: 'U_ADA', view: home });
    expect(republished.view?.id).toBe(published.view?.id);
    expect(standIn.views.home.get('U_ADA')).toMatchObject({
      via: 'views.publish',
      updates: 1,
      view: { type: 'home' },
    });
  });

  it('fails the next call with ratelimited (HTTP 429 + Retry-After), then succeeds', async () => {
    standIn.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 7 });
    const error: unknown = await client.chat
      .postMessage({ channel: 'C_GENERAL', text: 'x' })
      .catch((e: unknown) => e);
    expect((error as WebAPIRateLimitedError).code).toBe(ErrorCode.RateLimitedError);
    expect((error as WebAPIRateLimitedError).retryAfter).toBe(7);
    expect(standIn.calls.at(-1)).toMatchObject({ method: 'chat.postMessage', status: 429 });
    expect(standIn.messages.get('C_GENERAL')).toBeUndefined();

    await expect(client.chat.postMessage({ channel: 'C_GENERAL', text: 'x' })).resolves.toMatchObject({
      ok: true,
    });
  });

  it('fails a given number of calls with a platform error such as not_in_channel', async () => {
    standIn.failNext('chat.postMessage', 'not_in_channel', { times: 2 });
    for (let i = 0; i < 2; i += 1) {
      const error = await platformError(client.chat.postMessage({ channel: 'C_PRIVATE', text: 'x' }));
      expect(error.data.error).toBe('not_in_channel');
    }
    await expect(client.chat.postMessage({ channel: 'C_PRIVATE', text: 'x' })).resolves.toMatchObject({
      ok: true,
    });
  });

  it('waitFor resolves for a call that has not happened yet, and for one already recorded', async () => {
    const waiting = standIn.waitFor((c) => c.method === 'chat.postMessage' && c.args.channel === 'C_LATER');
    await client.chat.postMessage({ channel: 'C_LATER', text: 'later' });
    await expect(waiting).resolves.toMatchObject({ method: 'chat.postMessage', args: { text: 'later' } });
    await expect(standIn.waitFor((c) => c.args.text === 'later')).resolves.toMatchObject({
      args: { channel: 'C_LATER' },
    });
  });

  it('waitFor rejects on its safety-net timeout, naming the recorded calls', async () => {
    await client.auth.test();
    await expect(standIn.waitFor((c) => c.method === 'views.open', { timeoutMs: 20 })).rejects.toThrow(
      /no matching call.*recorded calls: auth\.test/,
    );
  });

  it('onCall notifies listeners until unsubscribed', async () => {
    const seen: string[] = [];
    const off = standIn.onCall((c) => seen.push(c.method));
    await client.auth.test();
    off();
    await client.team.info();
    expect(seen).toEqual(['auth.test']);
  });

  it('answers users.info and users.lookupByEmail from the seed', async () => {
    const ada = await client.users.info({ user: 'U_ADA' });
    expect(ada.user).toMatchObject({
      id: 'U_ADA',
      real_name: 'Ada Lovelace',
      tz: 'Europe/Paris',
      is_admin: true,
      profile: { email: 'ada@example.com', display_name: 'Ada' },
    });
    const grace = await client.users.lookupByEmail({ email: 'grace@example.com' });
    expect(grace.user).toMatchObject({ id: 'U_GRACE', tz: 'America/New_York', is_admin: false });
    const unknown = await platformError(client.users.info({ user: 'U_NOBODY' }));
    expect(unknown.data.error).toBe('user_not_found');
  });

  it('exchanges good-code in oauth.v2.access for an installation of T_OTHER', async () => {
    const noToken = new WebClient(undefined, { slackApiUrl: standIn.url, retryConfig: { retries: 0 } });
    const install = await noToken.oauth.v2.access({
      client_id: 'cid',
      client_secret: 'csecret',
      code: 'good-code',
    });
    expect(install).toMatchObject({
      ok: true,
      access_token: 'xoxb-test-other',
      token_type: 'bot',
      bot_user_id: 'U_BOT_OTHER',
      app_id: 'A_LOCAL',
      team: { id: 'T_OTHER' },
      authed_user: { id: 'U_OTHER_ADMIN' },
    });
    expect(install.scope).toContain('chat:write');
    // the issued token now speaks for the other workspace, as Bolt's installer checks with auth.test
    const other = await noToken.auth.test({ token: 'xoxb-test-other' });
    expect(other).toMatchObject({ team_id: 'T_OTHER', user_id: 'U_BOT_OTHER', bot_id: 'B_OTHER' });

    const bad = await platformError(
      noToken.oauth.v2.access({ client_id: 'cid', client_secret: 'csecret', code: 'nope' }),
    );
    expect(bad.data.error).toBe('invalid_code');
  });

  it('with token rotation, hands out a refresh token and trades each one once (grant_type=refresh_token)', async () => {
    const rotating = await startSlackStandIn({ tokenRotation: true });
    try {
      const noToken = new WebClient(undefined, { slackApiUrl: rotating.url, retryConfig: { retries: 0 } });
      const install = await noToken.oauth.v2.access({
        client_id: 'cid',
        client_secret: 'cs',
        code: 'good-code',
      });
      expect(install).toMatchObject({ ok: true, expires_in: 43_200, team: { id: 'T_OTHER' } });
      expect(install.refresh_token).toMatch(/^xoxe-1-/);
      const renewed = await noToken.oauth.v2.access({
        client_id: 'cid',
        client_secret: 'cs',
        grant_type: 'refresh_token',
        refresh_token: install.refresh_token!,
      });
      expect(renewed.access_token).not.toBe(install.access_token);
      expect(renewed.refresh_token).not.toBe(install.refresh_token);
      expect(await noToken.auth.test({ token: renewed.access_token! })).toMatchObject({ team_id: 'T_OTHER' });
      const again = await platformError(
        noToken.oauth.v2.access({
          client_id: 'cid',
          client_secret: 'cs',
          grant_type: 'refresh_token',
          refresh_token: install.refresh_token!,
        }),
      );
      expect(again.data.error).toBe('invalid_refresh_token');
    } finally {
      await rotating.close();
    }
  });

  it('answers unknown methods with unknown_method', async () => {
    const error = await platformError(client.apiCall('nothing.here'));
    expect(error.data.error).toBe('unknown_method');
  });

  it('accepts JSON bodies and a token form field alike', async () => {
    const json = await fetch(`${standIn.url}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', authorization: 'Bearer xoxb-test-json' },
      body: JSON.stringify({ channel: 'C_JSON', text: 'json', blocks: [{ type: 'divider' }] }),
    });
    expect(await json.json()).toMatchObject({ ok: true, channel: 'C_JSON' });
    const form = await fetch(`${standIn.url}users.info`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: 'xoxb-test-form', user: 'U_GRACE' }).toString(),
    });
    expect(await form.json()).toMatchObject({ ok: true, user: { id: 'U_GRACE' } });
    expect(standIn.calls.map((c) => [c.method, c.token])).toEqual([
      ['chat.postMessage', 'xoxb-test-json'],
      ['users.info', 'xoxb-test-form'],
    ]);
    expect(standIn.calls[0]?.args.blocks).toEqual([{ type: 'divider' }]);
    expect(standIn.calls[1]?.args).toEqual({ user: 'U_GRACE' });
  });

  it('records POSTs to response URLs', async () => {
    const url = standIn.responseUrl('cmd-1');
    expect(url).toBe(`${standIn.origin}/response/cmd-1`);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ response_type: 'ephemeral', text: 'done', replace_original: false }),
    });
    expect(response.status).toBe(200);
    expect(standIn.responseUrlCalls).toEqual([
      expect.objectContaining({
        method: 'response_url',
        path: '/response/cmd-1',
        args: { response_type: 'ephemeral', text: 'done', replace_original: false },
      }),
    ]);
    expect(standIn.calls).toEqual([]);

    standIn.failNext('response_url', 'expired_url');
    const expired = await fetch(url, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(expired.status).toBe(404);
  });
});
