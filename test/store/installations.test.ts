/**
 * The installation store: workspace installs under their team, Enterprise Grid org-wide installs
 * under their enterprise (and found for every team of the org that Bolt tells us about), always
 * encrypted at rest.
 */
import { randomBytes } from 'node:crypto';
import type { Installation } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCipher } from '../../src/store/crypto.ts';
import { installationStore } from '../../src/store/installations.ts';
import { deleteKeys, masters, type Redis, whenReady } from '../../src/store/redis.ts';
import { connectTestRedis, testSpace } from '../support/redisTarget.ts';

const prefix = `test-${randomBytes(6).toString('hex')}`;
let redis: Redis;
const cipher = createCipher({ encryptionKey: randomBytes(32).toString('base64') });

const orgInstall = {
  isEnterpriseInstall: true,
  enterprise: { id: 'E_ORG', name: 'Org' },
  team: undefined,
  bot: { token: 'xoxb-test-enterprise', scopes: ['commands'], id: 'B_ORG', userId: 'U_BOT_ORG' },
  user: { token: undefined, scopes: undefined, id: 'U_ADMIN' },
  appId: 'A_LOCAL',
  tokenType: 'bot',
} as unknown as Installation<'v2', true>;

const teamInstall = {
  isEnterpriseInstall: false,
  team: { id: 'T_SOLO', name: 'Solo' },
  enterprise: undefined,
  bot: { token: 'xoxb-test-solo', scopes: ['commands'], id: 'B_SOLO', userId: 'U_BOT_SOLO' },
  user: { token: undefined, scopes: undefined, id: 'U_ADMIN' },
  appId: 'A_LOCAL',
  tokenType: 'bot',
} as unknown as Installation<'v2', false>;

beforeAll(async () => {
  redis = connectTestRedis('producer');
  await whenReady(redis);
});
afterAll(async () => {
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
});

describe('installation store', () => {
  const store = () => installationStore(redis, testSpace(prefix), cipher);

  it('keeps an org-wide install under its enterprise and serves the org teams Bolt names', async () => {
    await store().storeInstallation(orgInstall);
    const fetched = await store().fetchInstallation({
      isEnterpriseInstall: true,
      enterpriseId: 'E_ORG',
      teamId: undefined,
    });
    expect(fetched.bot?.token).toBe('xoxb-test-enterprise');

    expect(await store().forTeam('T_IN_ORG')).toBeUndefined();
    expect(await store().bindEnterprise('T_IN_ORG', 'E_ORG')).toBe(true);
    expect((await store().forTeam('T_IN_ORG'))?.bot?.token).toBe('xoxb-test-enterprise');
  });

  it('keeps a workspace install under its team, apart from the org', async () => {
    await store().storeInstallation(teamInstall);
    expect((await store().forTeam('T_SOLO'))?.bot?.token).toBe('xoxb-test-solo');
    await expect(
      store().fetchInstallation({ isEnterpriseInstall: false, teamId: 'T_OTHER', enterpriseId: undefined }),
    ).rejects.toThrow(/no installation/);
  });

  it('binds a workspace to the one org install that may serve it, never to a second, never over its own', async () => {
    await store().storeInstallation(orgInstall);
    expect(await store().bindEnterprise('T_NEW_IN_ORG', 'E_ORG')).toBe(true);
    expect((await store().forTeam('T_NEW_IN_ORG'))?.bot?.token).toBe('xoxb-test-enterprise');
    // Bound: another enterprise's install does not serve it, and does not rebind it.
    expect(await store().bindEnterprise('T_NEW_IN_ORG', 'E_ELSEWHERE')).toBe(false);
    expect(await store().bindEnterprise('T_NEW_IN_ORG', 'E_ORG')).toBe(true);
    // A workspace installed on its own, outside the enterprise, is never served by the org's install.
    expect(await store().bindEnterprise('T_SOLO', 'E_ORG')).toBe(false);
    expect((await store().forTeam('T_SOLO'))?.bot?.token).toBe('xoxb-test-solo');
  });

  it('stores no token in clear', async () => {
    const found: string[] = [];
    // Every master of a cluster holds some of the keys.
    for (const node of masters(redis)) {
      let cursor = '0';
      do {
        const [next, page] = await node.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
        cursor = next;
        found.push(...page);
      } while (cursor !== '0');
    }
    expect(found.length).toBeGreaterThanOrEqual(2);
    for (const key of found) {
      const value = (await redis.get(key)) ?? '';
      expect(value).not.toContain('xoxb-test');
    }
  });

  it('forgets an org install on delete', async () => {
    await store().deleteInstallation({ isEnterpriseInstall: true, enterpriseId: 'E_ORG', teamId: undefined });
    expect(await store().forTeam('T_IN_ORG')).toBeUndefined();
  });
});
