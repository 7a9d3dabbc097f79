/** Configuration of multi-workspace mode, the admin list, the insecure-url rule and the queue-only loader. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadQueueConfig } from '../src/config.ts';

const multi = {
  SLACK_SIGNING_SECRET: 'test-signing',
  SLACK_CLIENT_ID: 'test-client-id',
  SLACK_CLIENT_SECRET: 'test-client-secret',
  SLACK_STATE_SECRET: 'test-state-secret',
  ENCRYPTION_KEY: '0f'.repeat(32),
};

describe('multi-workspace configuration', () => {
  it('needs no bot token nor service url, and carries the install and encryption settings', () => {
    const config = loadConfig(multi);
    expect(config.install).toEqual({
      clientId: 'test-client-id',
      clientSecret: 'test-client-secret',
      stateSecret: 'test-state-secret',
    });
    expect(config.encryption?.encryptionKey).toBe('0f'.repeat(32));
    expect(config.slack.botToken).toBeUndefined();
    expect(config.collab.baseUrl).toBeUndefined();
  });

  it('names what is missing: the other OAuth values and the encryption key', () => {
    try {
      loadConfig({ SLACK_SIGNING_SECRET: 'x', SLACK_CLIENT_ID: 'id' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      for (const name of ['SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET', 'ENCRYPTION_KEY']) {
        expect(String(error)).toContain(name);
      }
    }
  });

  it('refuses a bot token beside OAuth, and an encryption key that is not 32 bytes (without quoting it)', () => {
    expect(() => loadConfig({ ...multi, SLACK_BOT_TOKEN: 'xoxb-test-both' })).toThrow(/SLACK_BOT_TOKEN/);
    try {
      loadConfig({ ...multi, ENCRYPTION_KEY: 'test-too-short' });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).toContain('ENCRYPTION_KEY');
      expect(String(error)).not.toContain('test-too-short');
    }
    expect(
      loadConfig({ ...multi, ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }).encryption,
    ).toBeDefined();
  });

  it('reads ADMIN_USER_IDS, the insecure-url rule and the readiness threshold', () => {
    const config = loadConfig({ ...multi, ADMIN_USER_IDS: ' U1, U2 ,,', READY_MAX_WAITING: '50' });
    expect(config.adminUserIds).toEqual(['U1', 'U2']);
    expect(config.readyMaxWaiting).toBe(50);
    expect(loadConfig({ ...multi, NODE_ENV: 'production' }).allowInsecureCollabUrl).toBe(false);
    expect(loadConfig({ ...multi, NODE_ENV: 'development' }).allowInsecureCollabUrl).toBe(true);
    expect(
      loadConfig({ ...multi, NODE_ENV: 'production', ALLOW_INSECURE_COLLAB_URL: 'true' })
        .allowInsecureCollabUrl,
    ).toBe(true);
  });

  it('loads the queue settings alone for the jobs CLI', () => {
    expect(loadQueueConfig({})).toEqual({
      redisUrl: 'redis://127.0.0.1:6379',
      redis: { url: 'redis://127.0.0.1:6379' },
      prefix: 'cs',
      queueShards: 1,
    });
  });
});
