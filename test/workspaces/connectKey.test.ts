/**
 * A workspace's saved API key goes only where its admins sent it. Two workspaces are installed
 * (T_OTHER through OAuth, T_LOCAL through the installation store) and connected to two
 * organisations. The connect form acts for the workspace Bolt authorised (for a view, the
 * installation named by `view.app_installed_team_id`), never for the payload's `team.id`; and an
 * empty key keeps the saved one only while the URL's origin is unchanged. A capture server
 * stands for wherever an attacker would like a key to go: it must receive nothing.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUTS, VIEWS } from '../../src/render/ids.ts';
import { viewSubmission } from '../../src/sandbox/slack/payloads.ts';

import { KEY_FOR_NEW_SERVER, SAVED_KEY_UNREADABLE } from '../../src/slack/listeners/views/connect.ts';

import {
  ADA,
  LOCAL_TEAM,
  type MultiHarness,
  OTHER_TEAM,
  startMultiHarness,
} from '../support/multi-harness.ts';

let h: MultiHarness;
let capture: { url: string; received: string[]; server: Server };

/** An HTTP server that records every request (method, path, authorization) and answers 200 `{}`. */
async function startCapture() {
  const received: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    received.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, server };
}

beforeAll(async () => {
  h = await startMultiHarness();
  capture = await startCapture();
  const [keyA, keyB] = h.emulator.apiKeys as [string, string];
  await h.install();
  await h.installLocal();
  expect((await h.connect(OTHER_TEAM, keyB)).body).toBe('');
  expect((await h.connect(LOCAL_TEAM, keyA)).body).toBe('');
});
afterAll(async () => {
  await h?.close();
  await new Promise((resolve) => capture?.server.close(resolve));
});

/** The connect form submitted with `baseUrl` and `apiKey`, as Slack would send it for `fields`. */
function connectSubmission(
  fields: { team: string; installedTeam?: string },
  baseUrl: string,
  apiKey: string,
): object {
  const payload = viewSubmission({
    user: ADA,
    team_id: fields.team,
    view: {
      id: `V_CONNECT_${fields.team}_${Math.random().toString(36).slice(2)}`,
      callback_id: VIEWS.connect,
      state: {
        values: {
          [INPUTS.baseUrl.block]: { [INPUTS.baseUrl.action]: { type: 'url_text_input', value: baseUrl } },
          [INPUTS.apiKey.block]: { [INPUTS.apiKey.action]: { type: 'plain_text_input', value: apiKey } },
        },
      },
    },
  });
  if (fields.installedTeam) Object.assign(payload.view, { app_installed_team_id: fields.installedTeam });
  return payload;
}

const connection = (team: string) => h.redis.get(`${h.prefix}:t:${team}:connection`);
const audit = (team: string) => h.redis.lrange(`${h.prefix}:t:${team}:audit`, 0, -1);
const CONNECTED = 'workspace connected to the service';
const connectedLines = () => h.logs.lines().filter((l) => l.msg === CONNECTED);
/** The n-th "connected" line (1-based), written already or to come: it is logged after the ack. */
const nthConnected = (n: number) => {
  let seen = 0;
  return h.logs.waitFor((l) => l.msg === CONNECTED && ++seen === n);
};

describe('the connect form and the workspace Bolt authorised', () => {
  it('acts for the installation the view belongs to, not the team.id of the payload', async () => {
    const localBefore = { connection: await connection(LOCAL_TEAM), audit: await audit(LOCAL_TEAM) };
    const linesBefore = connectedLines().length;
    // Installed in T_OTHER (Bolt authorises it, its admin is checked); team.id says T_LOCAL.
    const answer = await h.interact(
      connectSubmission({ team: LOCAL_TEAM, installedTeam: OTHER_TEAM }, h.emulator.url, ''),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('');

    await nthConnected(linesBefore + 1);
    const lines = connectedLines().slice(linesBefore);
    expect(lines.map((l) => l.teamId)).toEqual([OTHER_TEAM]);
    expect(await connection(LOCAL_TEAM)).toBe(localBefore.connection);
    expect(await audit(LOCAL_TEAM)).toEqual(localBefore.audit);
    expect((await audit(OTHER_TEAM))[0]).toContain('reconnected');
  });

  it('sends no saved key to a new URL named under a forged team.id: the capture server gets nothing', async () => {
    const localBefore = await connection(LOCAL_TEAM);
    const otherBefore = await connection(OTHER_TEAM);
    const linesBefore = connectedLines().length;
    const answer = await h.interact(
      connectSubmission({ team: LOCAL_TEAM, installedTeam: OTHER_TEAM }, capture.url, ''),
    );
    expect(answer.json<{ errors: Record<string, string> }>().errors).toEqual({
      [INPUTS.apiKey.block]: KEY_FOR_NEW_SERVER,
    });
    expect(capture.received).toEqual([]);
    expect(connectedLines().length).toBe(linesBefore);
    expect(await connection(LOCAL_TEAM)).toBe(localBefore);
    expect(await connection(OTHER_TEAM)).toBe(otherBefore);
  });
});

describe('an empty key on the connect form', () => {
  it('is refused under the key field when the URL moves to another origin; nothing is sent there', async () => {
    const before = await connection(OTHER_TEAM);
    const moved = [
      capture.url,
      // the same host on another scheme or port is another origin
      capture.url.replace('http://', 'https://'),
      `${new URL(h.emulator.url).protocol}//localhost:${new URL(h.emulator.url).port}`,
    ];
    for (const baseUrl of moved) {
      const answer = await h.interact(connectSubmission({ team: OTHER_TEAM }, baseUrl, ''));
      expect(answer.json<{ errors: Record<string, string> }>().errors, baseUrl).toEqual({
        [INPUTS.apiKey.block]: KEY_FOR_NEW_SERVER,
      });
    }
    expect(capture.received).toEqual([]);
    expect(await connection(OTHER_TEAM)).toBe(before);
  });

  it('keeps the saved key while the origin is unchanged', async () => {
    const answer = await h.interact(connectSubmission({ team: OTHER_TEAM }, `${h.emulator.url}/`, ''));
    expect(answer.body).toBe('');
    expect((await audit(OTHER_TEAM))[0]).toContain('reconnected');
  });

  it('sends a key typed for the new URL there, and only that one', async () => {
    const from = capture.received.length;
    const answer = await h.interact(
      connectSubmission({ team: OTHER_TEAM }, capture.url, 'typed-for-capture'),
    );
    expect(answer.status).toBe(200);
    expect(capture.received.slice(from)).toEqual([
      expect.stringMatching(/^GET \/v2\/channels\?.* Bearer typed-for-capture$/),
    ]);
  });

  it('keeps the form open, asking for the key, when the saved one cannot be read', async () => {
    const saved = (await connection(OTHER_TEAM))!;
    const broken = JSON.stringify({ ...JSON.parse(saved), sealedKey: 'enc:v1:not:a:sealed:key' });
    await h.redis.set(`${h.prefix}:t:${OTHER_TEAM}:connection`, broken);
    try {
      const from = h.emulator.received.length;
      const answer = await h.interact(connectSubmission({ team: OTHER_TEAM }, h.emulator.url, ''));
      expect(answer.json<{ errors: Record<string, string> }>().errors).toEqual({
        [INPUTS.apiKey.block]: SAVED_KEY_UNREADABLE,
      });
      expect(h.emulator.received.slice(from)).toEqual([]);
    } finally {
      await h.redis.set(`${h.prefix}:t:${OTHER_TEAM}:connection`, saved);
    }
  });
});
