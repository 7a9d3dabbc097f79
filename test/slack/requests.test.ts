/**
 * Every Slack request is verified: a bad or missing signature and a timestamp more than 5 minutes
 * old or ahead are refused (Bolt's checks, never turned off), and bodies over 1 MB are refused with 413 before
 * they are parsed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slashCommandBody } from '../../src/sandbox/slack/index.ts';
import { signSlackRequest } from '../../src/sandbox/slack/sign.ts';
import { BODY_LIMIT_BYTES } from '../../src/slack/app.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { postToBolt } from '../support/slack-client.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ worker: false });
});
afterAll(async () => {
  await h?.close();
});

const body = () =>
  slashCommandBody({
    command: '/collab',
    text: 'help',
    user_id: 'U_ADA',
    channel_id: 'C_GENERAL',
    team_id: 'T_LOCAL',
    response_url: h.slack.responseUrl(),
    trigger_id: 'trigger-requests',
  });

describe('Slack request verification', () => {
  it('answers a correctly signed request', async () => {
    expect((await postToBolt(h.baseUrl, h.signingSecret, 'command', body())).status).toBe(200);
  });

  it('refuses a request signed with another secret', async () => {
    expect((await postToBolt(h.baseUrl, 'not-the-secret', 'command', body())).status).toBe(401);
  });

  it('refuses a request without a signature', async () => {
    const response = await fetch(`${h.baseUrl}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body(),
    });
    expect(response.status).toBe(401);
  });

  it('refuses a replay older than 5 minutes, even correctly signed', async () => {
    const raw = body();
    const stale = signSlackRequest(h.signingSecret, raw, Math.floor(Date.now() / 1000) - 6 * 60);
    expect((await postToBolt(h.baseUrl, h.signingSecret, 'command', raw, stale)).status).toBe(401);
  });

  it('refuses a request timestamped more than 5 minutes ahead, even correctly signed', async () => {
    const raw = body();
    const ahead = signSlackRequest(h.signingSecret, raw, Math.floor(Date.now() / 1000) + 6 * 60);
    expect((await postToBolt(h.baseUrl, h.signingSecret, 'command', raw, ahead)).status).toBe(401);
    const hourAhead = signSlackRequest(h.signingSecret, raw, Math.floor(Date.now() / 1000) + 3600);
    expect((await postToBolt(h.baseUrl, h.signingSecret, 'command', raw, hourAhead)).status).toBe(401);
    // A little clock skew is fine.
    const skewed = signSlackRequest(h.signingSecret, raw, Math.floor(Date.now() / 1000) + 60);
    expect((await postToBolt(h.baseUrl, h.signingSecret, 'command', raw, skewed)).status).toBe(200);
  });

  it('refuses a body over 1 MB with 413, before parsing it', async () => {
    const raw = `${body()}&padding=${'x'.repeat(BODY_LIMIT_BYTES)}`;
    expect((await postToBolt(h.baseUrl, h.signingSecret, 'command', raw)).status).toBe(413);
  });

  it('never turns signature verification off anywhere in the code', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts')) files.push(path);
      }
    };
    walk(new URL('../../src', import.meta.url).pathname);
    for (const file of files) {
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/signatureVerification\s*:\s*false/);
    }
  });
});
