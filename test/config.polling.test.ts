import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { DEFAULT_POLLING } from '../src/jobs/polling.ts';

const complete = {
  SLACK_SIGNING_SECRET: 'test-signing',
  SLACK_BOT_TOKEN: 'xoxb-test-config',
  COLLAB_API_URL: 'https://collab.example.com',
  COLLAB_API_KEY: 'test-key',
};

describe('polling configuration', () => {
  it('defaults to a minute for feeds, 15 s for active threads, 5 minutes for idle ones', () => {
    expect(loadConfig(complete).polling).toEqual({
      feedIntervalMs: 60_000,
      threadActiveMs: 15_000,
      threadIdleMs: 300_000,
    });
    expect(DEFAULT_POLLING).toEqual(loadConfig(complete).polling);
  });

  it('reads the three variables, and refuses intervals under a second', () => {
    const config = loadConfig({
      ...complete,
      FEED_POLL_INTERVAL_MS: '120000',
      THREAD_POLL_ACTIVE_MS: '5000',
      THREAD_POLL_IDLE_MS: '600000',
    });
    expect(config.polling).toEqual({ feedIntervalMs: 120_000, threadActiveMs: 5000, threadIdleMs: 600_000 });
    expect(() => loadConfig({ ...complete, FEED_POLL_INTERVAL_MS: '10' })).toThrow(ConfigError);
  });
});
