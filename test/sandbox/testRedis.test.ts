/**
 * `npm test` on a fresh machine: the globalSetup starts a private redis-server when nothing
 * answers on REDIS_URL, hands its address on through REDIS_URL, and stops it at the end; with a
 * Redis that answers it changes nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { findOnPath, freePort, redisAnswers } from '../../src/sandbox/redis.ts';
import setup from '../support/redisGlobalSetup.ts';

const hasBinary = findOnPath('redis-server') !== undefined;

describe('the tests’ Redis (vitest globalSetup)', () => {
  const original = process.env.REDIS_URL;
  afterEach(() => {
    if (original === undefined) delete process.env.REDIS_URL;
    else process.env.REDIS_URL = original;
  });

  it('keeps a REDIS_URL that answers', async () => {
    const teardown = await setup();
    expect(teardown).toBeUndefined();
    expect(process.env.REDIS_URL).toBe(original?.trim() || 'redis://127.0.0.1:6379');
  });

  it.skipIf(!hasBinary)(
    'starts a private redis-server when nothing answers, and stops it at the end',
    async () => {
      const dead = `redis://127.0.0.1:${await freePort()}`;
      process.env.REDIS_URL = dead;
      const teardown = await setup();
      const url = process.env.REDIS_URL;
      expect(url).not.toBe(dead);
      const port = Number(new URL(url).port);
      expect(await redisAnswers('127.0.0.1', port)).toBe(true);
      await teardown?.();
      expect(await redisAnswers('127.0.0.1', port)).toBe(false);
    },
  );
});
