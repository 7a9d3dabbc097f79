/**
 * Secrets never reach the logs: a run in multi-workspace mode with known secrets (signing secret,
 * client and state secrets, encryption key, API keys, bot tokens) at the most verbose level, with
 * failures on the way, then every line written is searched for them. And the logger's
 * configuration itself censors credential fields wherever they are logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger, scrubText } from '../../src/logger.ts';
import { OTHER_INSTALLATION } from '../../src/sandbox/slack/index.ts';
import { appHomeOpened, appUninstalled } from '../../src/sandbox/slack/payloads.ts';
import { captureLogs } from '../support/log-capture.ts';
import {
  ADA,
  LOCAL_TEAM,
  LOCAL_TOKEN,
  type MultiHarness,
  OTHER_TEAM,
  startMultiHarness,
} from '../support/multi-harness.ts';

let h: MultiHarness;
beforeAll(async () => {
  h = await startMultiHarness({ env: { LOG_LEVEL: 'trace', JOB_ATTEMPTS: '1' } });
});
afterAll(async () => {
  await h?.close();
});

describe('log redaction', () => {
  it('writes no secret of a whole run into the logs', async () => {
    const [keyA, keyB] = h.emulator.apiKeys as [string, string];
    await h.install();
    await h.installLocal();
    await h.connect(OTHER_TEAM, 'test-wrong-key-value');
    await h.connect(OTHER_TEAM, keyB);
    await h.connect(LOCAL_TEAM, keyA);
    h.emulator.faults.add({ route: 'GET /v2/channels', status: 401 });
    const failed = h.nextSettled('listChannels');
    await h.command(LOCAL_TEAM, 'channels');
    await failed;
    const created = h.nextSettled('createPost');
    await h.command(OTHER_TEAM, 'post #engineering Logged run | body');
    await created;
    await h.event(OTHER_TEAM, appHomeOpened({ user: ADA }));
    await h.event(OTHER_TEAM, appUninstalled());
    await h.logs.waitFor((l) => l.msg === 'workspace data removed');

    const text = h.logs.text();
    expect(h.logs.lines().length).toBeGreaterThan(5);
    const secrets = {
      signingSecret: h.signingSecret,
      clientSecret: h.secrets.clientSecret,
      stateSecret: h.secrets.stateSecret,
      encryptionKey: h.secrets.encryptionKey,
      keyA,
      keyB,
      wrongKey: 'test-wrong-key-value',
      otherToken: OTHER_INSTALLATION.accessToken,
      localToken: LOCAL_TOKEN,
    };
    for (const [name, value] of Object.entries(secrets)) expect(text.includes(value), name).toBe(false);
  });

  it('censors credential fields by configuration, wherever they are logged', () => {
    const logs = captureLogs();
    const logger = createLogger({ level: 'info' }, logs.stream);
    const config = loadConfig({
      SLACK_SIGNING_SECRET: 'test-signing-value',
      SLACK_CLIENT_ID: 'test-client-id',
      SLACK_CLIENT_SECRET: 'test-client-secret-value',
      SLACK_STATE_SECRET: 'test-state-secret-value',
      ENCRYPTION_KEY: 'ab'.repeat(32),
      ENCRYPTION_KEY_PREVIOUS: 'cd'.repeat(32),
    });
    logger.info({ config }, 'configuration');
    logger.info(
      { headers: { authorization: 'Bearer test-api-key-value', cookie: 'slack-app-oauth-state=x' } },
      'h',
    );
    logger.info({ installation: { bot: { token: 'xoxb-test-nested' } }, apiKey: 'test-api-key-value' }, 'i');
    const text = logs.text();
    for (const secret of [
      'test-signing-value',
      'test-client-secret-value',
      'test-state-secret-value',
      'ab'.repeat(32),
      'cd'.repeat(32),
      'test-api-key-value',
      'xoxb-test-nested',
      'slack-app-oauth-state',
    ]) {
      expect(text.includes(secret), secret).toBe(false);
    }
    expect(text).toContain('[redacted]');
  });

  it('masks a workflow step execution’s token in text (Bolt logs strings)', () => {
    expect(scrubText('completing with xwfp-1234-abcd failed')).toBe('completing with [redacted] failed');
  });
});
