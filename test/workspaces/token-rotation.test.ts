/**
 * Token rotation against the Slack stand-in (`tokenRotation: true`): the OAuth install stores
 * the refresh token and expiry; an expiring bot token is refreshed once (`oauth.v2.access` with
 * `grant_type=refresh_token`) even with two processes asking at once, the new pair is stored, and
 * the web role (Bolt's installer) and the worker both use the new token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appHomeOpened } from '../../src/sandbox/slack/payloads.ts';
import { createCipher } from '../../src/store/crypto.ts';
import { type AnyInstallation, installationStore } from '../../src/store/installations.ts';
import { connectRedis, type Redis, whenReady } from '../../src/store/redis.ts';
import { slackTokenRefresher, tokenRotation } from '../../src/store/tokenRotation.ts';
import { REDIS_URL } from '../support/harness.ts';
import { ADA, type MultiHarness, OTHER_TEAM, startMultiHarness } from '../support/multi-harness.ts';

let h: MultiHarness;
let key: string;
const extra: Redis[] = [];

beforeAll(async () => {
  h = await startMultiHarness({ slack: { tokenRotation: true } });
  key = h.emulator.apiKeys[1]!;
});
afterAll(async () => {
  for (const redis of extra) redis.disconnect();
  await h?.close();
});

const cipher = () => createCipher({ encryptionKey: h.secrets.encryptionKey });
/** The installation store as stored, without rotation. */
const plain = () => installationStore(h.redis, { prefix: h.prefix }, cipher());
/** Another process's store: its own Redis connection, its own rotation. */
async function otherProcess() {
  const redis = connectRedis(REDIS_URL, 'producer');
  extra.push(redis);
  await whenReady(redis);
  const refresher = slackTokenRefresher({
    clientId: 'test-client-id',
    clientSecret: h.secrets.clientSecret,
    slackApiUrl: h.slack.url,
  });
  return installationStore(redis, { prefix: h.prefix }, cipher(), {
    rotation: tokenRotation(redis, refresher),
  });
}
const refreshes = () =>
  h.slack.calls.filter((c) => c.method === 'oauth.v2.access' && c.args.grant_type === 'refresh_token');

async function expire(): Promise<AnyInstallation> {
  const installation = (await plain().forTeam(OTHER_TEAM))!;
  const expired = {
    ...installation,
    bot: { ...installation.bot!, expiresAt: Math.floor(Date.now() / 1000) - 60 },
  };
  await plain().storeInstallation(expired);
  return expired;
}

describe('token rotation', () => {
  it('the install stores the refresh token and the expiry', async () => {
    const { redirect } = await h.install();
    expect(redirect.status).toBe(200);
    const stored = (await plain().forTeam(OTHER_TEAM))!;
    expect(stored.bot?.token).toMatch(/^xoxe\.xoxb-/);
    expect(stored.bot?.refreshToken).toMatch(/^xoxe-1-/);
    expect(stored.bot?.expiresAt).toBeGreaterThan(Date.now() / 1000 + 11 * 3600);
  });

  it('an expired token is refreshed once for two processes asking at once; both get the new pair', async () => {
    const before = await expire();
    const [a, b] = [await otherProcess(), await otherProcess()];
    const calls = refreshes().length;
    const [first, second] = await Promise.all([a.forTeam(OTHER_TEAM), b.forTeam(OTHER_TEAM)]);
    expect(refreshes().length).toBe(calls + 1);
    expect(refreshes().at(-1)?.args.refresh_token).toBe(before.bot?.refreshToken);
    expect(first?.bot?.token).not.toBe(before.bot?.token);
    expect(second?.bot?.token).toBe(first?.bot?.token);
    const stored = (await plain().forTeam(OTHER_TEAM))!;
    expect(stored.bot?.token).toBe(first?.bot?.token);
    expect(stored.bot?.refreshToken).not.toBe(before.bot?.refreshToken);
    expect(stored.bot?.expiresAt).toBeGreaterThan(Date.now() / 1000 + 11 * 3600);
    // Valid now: nobody refreshes again.
    await Promise.all([a.forTeam(OTHER_TEAM), b.forTeam(OTHER_TEAM)]);
    expect(refreshes().length).toBe(calls + 1);
  });

  it('the web role and the worker use the refreshed token', async () => {
    expect((await h.connect(OTHER_TEAM, key)).body).toBe('');
    const expired = await expire();
    const calls = refreshes().length;

    // Web role: Bolt's installer authorizes the event through the store.
    await h.event(OTHER_TEAM, appHomeOpened({ user: ADA }));
    const publish = await h.slack.waitFor(
      (c) => c.method === 'views.publish' && c.token !== expired.bot?.token,
    );
    expect(refreshes().length).toBe(calls + 1);
    const fresh = (await plain().forTeam(OTHER_TEAM))!;
    expect(publish.token).toBe(fresh.bot?.token);

    // Worker: its job posts with the same new token, without refreshing again.
    const settled = h.nextSettled('createPost');
    await h.command(OTHER_TEAM, 'post #engineering Rotated | with a fresh token');
    expect((await settled).state).toBe('completed');
    const card = await h.slack.waitFor(
      (c) => c.method === 'chat.postMessage' && JSON.stringify(c.args).includes('Rotated'),
    );
    expect(card.token).toBe(fresh.bot?.token);
    expect(refreshes().length).toBe(calls + 1);
  });
});
