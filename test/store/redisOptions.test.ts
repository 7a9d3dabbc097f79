/**
 * The two kinds of Redis connection (src/store/redis.ts), as the fault suite needs them: a
 * producer fails fast while Redis is away and finds it again within half a second; a worker
 * waits for Redis forever. Neither is auto-pipelined (src/runtime.ts says why).
 */
import { describe, expect, it } from 'vitest';
import { clusterOptions, redisOptions } from '../../src/store/redis.ts';

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

  it('a worker never gives up a command, backs off to 2 s', () => {
    const options = redisOptions('worker');
    expect(options.maxRetriesPerRequest).toBeNull();
    expect(Math.max(...(retries('worker') as number[]))).toBe(2000);
    expect(options.enableAutoPipelining).toBeUndefined();
  });

  it("a cluster's nodes are connected as the role's, with REDIS_URL's credentials and TLS", () => {
    const target = { nodes: [{ host: 'node-a.example.com', port: 6379 }] };
    const tls = clusterOptions('rediss://bot:s%40cret@any.example.com:6380', target, 'producer');
    expect(tls.redisOptions).toMatchObject({
      username: 'bot',
      password: 's@cret',
      tls: {},
      maxRetriesPerRequest: 1,
      commandTimeout: redisOptions('producer').commandTimeout,
    });
    expect(tls.enableOfflineQueue).toBe(false);
    // Certificates are checked against the names the nodes are reached at: no resolving them first.
    expect(tls.dnsLookup).toBeTypeOf('function');
    const worker = clusterOptions('redis://127.0.0.1:6379', target, 'worker');
    expect(worker.redisOptions?.maxRetriesPerRequest).toBeNull();
    expect(worker.redisOptions?.tls).toBeUndefined();
    expect(worker.enableAutoPipelining).toBeUndefined();
    expect(worker.dnsLookup).toBeUndefined();
    expect(worker.slotsRefreshInterval).toBeLessThanOrEqual(1000);
    // A worker's commands follow redirections for longer than a failover's election (15 s by
    // default): a completion failed on "Too many Cluster redirections" made BullMQ run a finished
    // job again (WORKER_MAX_REDIRECTIONS). A producer keeps ioredis's short count: it fails fast.
    expect((worker.maxRedirections ?? 16) * (worker.retryDelayOnFailover ?? 100)).toBeGreaterThan(20_000);
    expect(tls.maxRedirections).toBeUndefined();
  });
});
