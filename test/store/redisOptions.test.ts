/**
 * The two kinds of Redis connection (src/store/redis.ts), as the fault suite needs them: a
 * producer fails fast while Redis is away and finds it again within half a second; a worker
 * waits for Redis forever and batches its commands.
 */
import { describe, expect, it } from 'vitest';
import { redisOptions } from '../../src/store/redis.ts';

const retries = (role: 'producer' | 'worker') => {
  const strategy = redisOptions(role).retryStrategy;
  if (!strategy) throw new Error('no retryStrategy');
  return Array.from({ length: 10 }, (_, i) => strategy(i + 1));
};

describe('redis connection options', () => {
  it('a producer refuses at once while Redis is away, and looks for it again at least twice a second', () => {
    const options = redisOptions('producer');
    expect(options.enableOfflineQueue).toBe(false);
    expect(options.maxRetriesPerRequest).toBe(1);
    expect(options.commandTimeout).toBeLessThan(3000);
    expect(Math.max(...(retries('producer') as number[]))).toBeLessThanOrEqual(500);
    expect(options.enableAutoPipelining).toBeUndefined();
  });

  it('a worker never gives up a command, backs off to 2 s, and pipelines its commands', () => {
    const options = redisOptions('worker');
    expect(options.maxRetriesPerRequest).toBeNull();
    expect(Math.max(...(retries('worker') as number[]))).toBe(2000);
    expect(options.enableAutoPipelining).toBe(true);
  });
});
