import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

const complete = {
  SLACK_SIGNING_SECRET: 'test-signing',
  SLACK_BOT_TOKEN: 'xoxb-test-config',
  COLLAB_API_URL: 'https://collab.example.com',
  COLLAB_API_KEY: 'test-key',
};

describe('request budget, concurrency and connections', () => {
  it('defaults to the service limit of 500 per 30 s, 100 of them kept for people', () => {
    expect(loadConfig(complete).collab.rate).toEqual({
      limit: 500,
      windowMs: 30_000,
      personReserve: 100,
      pauseMs: 5000,
    });
  });

  it('sizes the worker and its pool from the budget unless told', () => {
    const defaults = loadConfig(complete);
    // 500 per 30 s is ~16.7 requests/s; operations of up to 2 s each: 34 in flight.
    expect(defaults.worker.concurrency).toBe(34);
    expect(defaults.collab.connections).toBe(34);
    const large = loadConfig({ ...complete, COLLAB_RATE_LIMIT: '1000000' });
    expect(large.worker.concurrency).toBe(256);
    const small = loadConfig({ ...complete, COLLAB_RATE_LIMIT: '30' });
    expect(small.worker.concurrency).toBe(16);
    const told = loadConfig({ ...complete, WORKER_CONCURRENCY: '48', COLLAB_CONNECTIONS: '20' });
    expect([told.worker.concurrency, told.collab.connections]).toEqual([48, 20]);
    expect(loadConfig({ ...complete, WORKER_CONCURRENCY: '48' }).collab.connections).toBe(48);
  });

  it('keeps at least one turn for background work, and refuses nonsense', () => {
    expect(
      loadConfig({ ...complete, COLLAB_RATE_LIMIT: '50', COLLAB_RATE_PERSON_RESERVE: '80' }).collab.rate
        .personReserve,
    ).toBe(49);
    expect(() => loadConfig({ ...complete, COLLAB_RATE_LIMIT: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...complete, COLLAB_CONNECTIONS: 'many' })).toThrow(ConfigError);
  });
});
