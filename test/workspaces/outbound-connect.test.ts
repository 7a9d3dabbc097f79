/**
 * The connect form refuses service URLs on non-public addresses before the API key is sent
 * anywhere, and the connection layer refuses them again when the name resolves elsewhere later.
 * The bot runs in multi-workspace mode with no allow-list; names resolve through a stub.
 */
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUTS } from '../../src/render/ids.ts';
import { type MultiHarness, OTHER_TEAM, startMultiHarness } from '../support/multi-harness.ts';

let h: MultiHarness;
let emulatorPort: string;
const answers: Record<string, string[][]> = {
  'internal.example.com': [['10.0.0.5']],
  'rebind.example.com': [['93.184.216.34'], ['127.0.0.1']],
};
const asked: string[] = [];

beforeAll(async () => {
  h = await startMultiHarness({
    env: { COLLAB_ALLOWED_HOSTS: '' },
    resolve: async (host): Promise<LookupAddress[]> => {
      const turns = answers[host];
      if (!turns) throw Object.assign(new Error('unknown'), { code: 'ENOTFOUND' });
      const answer = turns[Math.min(asked.filter((a) => a === host).length, turns.length - 1)]!;
      asked.push(host);
      return answer.map((address) => ({ address, family: 4 }));
    },
  });
  await h.install();
  emulatorPort = new URL(h.emulator.url).port;
});
afterAll(async () => {
  await h?.close();
});

const urlError = async (baseUrl: string) => {
  const answer = await h.connect(OTHER_TEAM, h.secrets.clientSecret, { baseUrl });
  return answer.json<{ errors: Record<string, string> }>().errors[INPUTS.baseUrl.block];
};

describe('connecting a service on a non-public address', () => {
  it.each([
    ['https://169.254.169.254', /cloud metadata address/],
    ['https://10.0.0.5', /private address/],
    ['https://127.0.0.1', /loopback address/],
    ['https://[fe80::1]', /link-local address/],
    ['https://metadata.google.internal', /cloud metadata name/],
    ['https://internal.example.com', /resolves to 10\.0\.0\.5, a private address/],
  ])('%s is refused under the URL field, and nothing is sent', async (baseUrl, message) => {
    const before = h.emulator.received.length;
    expect(await urlError(baseUrl)).toMatch(message);
    expect(h.emulator.received.length).toBe(before);
  });

  it('the emulator itself (loopback, http allowed in tests) is refused without an allow-list', async () => {
    const before = h.emulator.received.length;
    expect(await urlError(h.emulator.url)).toMatch(/loopback address.*COLLAB_ALLOWED_HOSTS/);
    expect(h.emulator.received.length).toBe(before);
    expect(await h.redis.exists(`${h.prefix}:t:${OTHER_TEAM}:connection`)).toBe(0);
  });

  it('a name public when checked and loopback when connecting is refused at the connection', async () => {
    const before = h.emulator.received.length;
    expect(await urlError(`https://rebind.example.com:${emulatorPort}`)).toMatch(/could not reach/);
    expect(h.emulator.received.length).toBe(before);
    expect(asked.filter((a) => a === 'rebind.example.com').length).toBeGreaterThanOrEqual(2);
    expect(await h.redis.exists(`${h.prefix}:t:${OTHER_TEAM}:connection`)).toBe(0);
  });
});
