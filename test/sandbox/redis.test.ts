import { describe, expect, it } from 'vitest';
import {
  chooseRedis,
  DEFAULT_REDIS_URL,
  findOnPath,
  REDIS_HELP,
  redisAnswers,
  startPrivateRedis,
} from '../../src/sandbox/redis.ts';

describe('chooseRedis: which Redis the sandbox uses', () => {
  it('REDIS_URL first, whatever else answers', () => {
    expect(
      chooseRedis({
        configuredUrl: 'redis://cache:6380/2',
        defaultAnswers: true,
        serverBinary: '/usr/bin/redis-server',
      }),
    ).toEqual({ kind: 'configured', url: 'redis://cache:6380/2' });
  });

  it('a blank REDIS_URL counts as unset', () => {
    expect(chooseRedis({ configuredUrl: '  ', defaultAnswers: true, serverBinary: undefined })).toEqual({
      kind: 'default',
      url: DEFAULT_REDIS_URL,
    });
  });

  it('then 127.0.0.1:6379 if it answers', () => {
    expect(
      chooseRedis({ configuredUrl: undefined, defaultAnswers: true, serverBinary: '/usr/bin/redis-server' }),
    ).toEqual({ kind: 'default', url: 'redis://127.0.0.1:6379' });
  });

  it('then a private redis-server when one is on PATH', () => {
    expect(
      chooseRedis({ configuredUrl: undefined, defaultAnswers: false, serverBinary: '/usr/bin/redis-server' }),
    ).toEqual({ kind: 'private', binary: '/usr/bin/redis-server' });
  });

  it('else says how to get Redis', () => {
    const choice = chooseRedis({ configuredUrl: undefined, defaultAnswers: false, serverBinary: undefined });
    expect(choice).toEqual({ kind: 'missing', message: REDIS_HELP });
    expect(REDIS_HELP).toContain('apt-get install redis-server');
    expect(REDIS_HELP).toContain('brew install redis');
    expect(REDIS_HELP).toContain('docker run -p 6379:6379 redis');
  });
});

describe('startPrivateRedis', () => {
  const binary = findOnPath('redis-server');
  it.skipIf(binary === undefined)(
    'starts a redis-server on a free port that answers, and stops it',
    async () => {
      const redis = await startPrivateRedis(binary!);
      try {
        expect(await redisAnswers('127.0.0.1', redis.port)).toBe(true);
      } finally {
        await redis.stop();
      }
      expect(await redisAnswers('127.0.0.1', redis.port)).toBe(false);
    },
  );
});
