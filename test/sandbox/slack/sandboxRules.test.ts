/**
 * `npm start` with local Slack: the stand-in enforces Slack's lifetimes by default, and
 * SLACK_STANDIN_RULES chooses otherwise; a rule name it does not know stops the start, saying which.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_SLACK_RULES, type Sandbox, startSandbox } from '../../../src/sandbox/run.ts';
import { KIND_RULES, resolveRules, SLACK_NUMBERS } from '../../../src/sandbox/slack/index.ts';
import { connectRedis, deleteKeys, whenReady } from '../../../src/store/redis.ts';

describe('Slack rules of the sandbox', () => {
  const prefix = `sandbox-test-${randomBytes(5).toString('hex')}`;
  const started: Sandbox[] = [];

  const start = async (rules?: string) => {
    const sandbox = await startSandbox({
      env: {
        PATH: process.env.PATH,
        REDIS_URL: process.env.REDIS_URL,
        LOG_LEVEL: 'silent',
        ...(rules === undefined ? {} : { SLACK_STANDIN_RULES: rules }),
      },
      plan: { slack: 'local', collab: 'emulator' },
      port: 0,
      prefix,
    });
    started.push(sandbox);
    return sandbox;
  };

  afterAll(async () => {
    for (const sandbox of started) await sandbox.stop();
    const redis = connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'producer');
    await whenReady(redis).catch(() => {});
    await deleteKeys(redis, `${prefix}:*`);
    redis.disconnect();
  });

  it('lifetimes on, rate limits off, by default', async () => {
    const rules = (await start()).slack?.rules;
    expect(rules).toEqual(resolveRules(SANDBOX_SLACK_RULES));
    expect(rules).toMatchObject({ rateLimits: false, triggerIdLifetime: SLACK_NUMBERS.triggerIdLifetime });
  });

  it('SLACK_STANDIN_RULES=strict turns every rule on; off turns them off', async () => {
    expect((await start('strict')).slack?.rules).toEqual(resolveRules('strict'));
    await started.pop()?.stop();
    expect((await start('off')).slack?.rules).toEqual(KIND_RULES);
  });

  it('an unknown rule name stops the start and says which names there are', async () => {
    await expect(start('rateLimit')).rejects.toThrow(/Unknown Slack rule "rateLimit".*rateLimits/);
  });
});
