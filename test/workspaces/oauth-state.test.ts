/**
 * An OAuth state is used once: the callback consumes it in Redis, so the same valid state and
 * cookie sent again are refused and Slack's `oauth.v2.access` is called only once. States not
 * signed by this app are refused too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_INSTALLATION } from '../../src/sandbox/slack/index.ts';
import { type MultiHarness, startMultiHarness } from '../support/multi-harness.ts';

let h: MultiHarness;
beforeAll(async () => {
  h = await startMultiHarness();
});
afterAll(async () => {
  await h?.close();
});

async function installPage(): Promise<{ state: string; cookie: string }> {
  const start = await fetch(`${h.baseUrl}/slack/install`, { redirect: 'manual' });
  const location = start.headers.get('location') ?? '';
  return {
    state: new URL(location).searchParams.get('state') ?? '',
    cookie: (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
  };
}

const callback = (state: string, cookie: string) =>
  fetch(
    `${h.baseUrl}/slack/oauth_redirect?code=${OTHER_INSTALLATION.code}&state=${encodeURIComponent(state)}`,
    { headers: { cookie }, redirect: 'manual' },
  );

const exchanges = () => h.slack.calls.filter((c) => c.method === 'oauth.v2.access').length;

describe('OAuth state', () => {
  it('is consumed at the callback: a replay with the same state and cookie is refused', async () => {
    const { state, cookie } = await installPage();
    const before = exchanges();
    const first = await callback(state, cookie);
    expect(first.status).toBe(200);
    expect(exchanges()).toBe(before + 1);

    const replay = await callback(state, cookie);
    expect(replay.status).not.toBe(200);
    expect(exchanges()).toBe(before + 1);
  });

  it('two concurrent callbacks with one state: one exchange', async () => {
    const { state, cookie } = await installPage();
    const before = exchanges();
    const answers = await Promise.all([callback(state, cookie), callback(state, cookie)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(exchanges()).toBe(before + 1);
  });

  it('refuses a state this app did not sign', async () => {
    const { state } = await installPage();
    const [body] = state.split('.');
    const forged = `${body}.AAAA`;
    const before = exchanges();
    const answer = await callback(forged, `slack-app-oauth-state=${forged}`);
    expect(answer.status).not.toBe(200);
    expect(exchanges()).toBe(before);
  });
});
