import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig, loadQueueConfig } from '../src/config.ts';

const complete = {
  SLACK_SIGNING_SECRET: 'test-signing',
  SLACK_BOT_TOKEN: 'xoxb-test-config',
  COLLAB_API_URL: 'https://collab.example.com',
  COLLAB_API_KEY: 'test-key',
};

describe('configuration', () => {
  it('names every missing variable at once', () => {
    try {
      loadConfig({});
      expect.unreachable('an empty environment must not load');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      for (const name of ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'COLLAB_API_URL', 'COLLAB_API_KEY']) {
        expect(message).toContain(name);
      }
    }
  });

  it('web role limits: documented defaults, overrides, and a headers timeout within the request timeout', () => {
    expect(loadConfig(complete).http).toEqual({
      headersTimeoutMs: 6000,
      requestTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5000,
      maxConnections: 1000,
    });
    expect(
      loadConfig({ ...complete, HTTP_MAX_CONNECTIONS: '50', HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000' }).http,
    ).toMatchObject({
      maxConnections: 50,
      keepAliveTimeoutMs: 65_000,
    });
    expect(() => loadConfig({ ...complete, HTTP_HEADERS_TIMEOUT_MS: '40000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ ...complete, HTTP_MAX_CONNECTIONS: '0' })).toThrow(/HTTP_MAX_CONNECTIONS/);
  });

  it('COLLAB_ALLOWED_HOSTS: host names, addresses and CIDRs; anything else is named', () => {
    expect(loadConfig(complete).collab.allowedHosts).toEqual([]);
    expect(
      loadConfig({
        ...complete,
        COLLAB_ALLOWED_HOSTS: 'collab.corp.internal, 10.20.0.0/16,fd12::/16,127.0.0.1',
      }).collab.allowedHosts,
    ).toEqual(['collab.corp.internal', '10.20.0.0/16', 'fd12::/16', '127.0.0.1']);
    for (const bad of ['10.0.0.0/33', 'https://collab.corp', 'a b', '10.0.0.0/x']) {
      expect(() => loadConfig({ ...complete, COLLAB_ALLOWED_HOSTS: bad }), bad).toThrow(
        /COLLAB_ALLOWED_HOSTS/,
      );
    }
  });

  it('applies the documented defaults', () => {
    const config = loadConfig(complete);
    expect(config.role).toBe('all');
    expect(config.port).toBe(3000);
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.slack.slashCommand).toBe('/collab');
    expect(config.worker).toEqual({ concurrency: 34, attempts: 6, backoffMs: 1000, lockMs: 60_000 });
  });

  it('needs no signing secret in Socket Mode', () => {
    const { SLACK_SIGNING_SECRET: _, ...rest } = complete;
    const config = loadConfig({ ...rest, SLACK_APP_TOKEN: 'xapp-test' });
    expect(config.slack.appToken).toBe('xapp-test');
  });

  it('rejects malformed values with the variable named', () => {
    expect(() => loadConfig({ ...complete, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ ...complete, ROLE: 'both' })).toThrow(/ROLE/);
    expect(() => loadConfig({ ...complete, COLLAB_QUERY_NAMES: '{oops' })).toThrow(/COLLAB_QUERY_NAMES/);
    expect(() => loadConfig({ ...complete, SLASH_COMMAND: 'collab' })).toThrow(/SLASH_COMMAND/);
  });

  it('reads an empty variable (`FOO=`, as Compose passes it) as unset, every variable alike', () => {
    const unset = JSON.stringify(loadConfig(complete));
    for (const name of CONFIG_VARIABLES) {
      if (name in complete) continue;
      for (const empty of ['', '  ']) {
        expect(JSON.stringify(loadConfig({ ...complete, [name]: empty })), `${name}=${empty}`).toBe(unset);
      }
    }
    expect(loadQueueConfig({ REDIS_URL: '', QUEUE_PREFIX: '', QUEUE_SHARDS: '' })).toEqual(
      loadQueueConfig({}),
    );
  });

  it('names a required variable left empty as missing, never as an invalid value', () => {
    for (const name of Object.keys(complete)) {
      expect(() => loadConfig({ ...complete, [name]: '' }), name).toThrow(new RegExp(`${name} is missing`));
    }
  });

  it('takes query name overrides as JSON', () => {
    const config = loadConfig({ ...complete, COLLAB_QUERY_NAMES: '{"pageSize":"per_page"}' });
    expect(config.collab.queryNames).toEqual({ pageSize: 'per_page' });
  });

  it('never puts a secret value in its errors', () => {
    try {
      loadConfig({ SLACK_BOT_TOKEN: 'xoxb-test-secret-value', PORT: 'x' });
    } catch (error) {
      expect(String(error)).not.toContain('xoxb-test-secret-value');
    }
  });
});
