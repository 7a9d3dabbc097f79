import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { shardNames, shardOf } from '../src/operations/shards.ts';
import { keys } from '../src/store/keys.ts';
import { keySlot } from '../src/store/redis.ts';

const complete = {
  SLACK_SIGNING_SECRET: 'test-signing',
  SLACK_BOT_TOKEN: 'xoxb-test-config',
  COLLAB_API_URL: 'https://collab.example.com',
  COLLAB_API_KEY: 'test-key',
};

describe('Redis Cluster settings', () => {
  it('one Redis by default: one queue, no waits, the URL alone', () => {
    const config = loadConfig(complete);
    expect(config.redis).toEqual({ url: 'redis://127.0.0.1:6379' });
    expect(config.queueShards).toBe(1);
    expect(config.redisWait.replicas).toBe(0);
    expect(shardNames({ shards: 1, cluster: false })).toEqual(['operations']);
  });

  it('a cluster from its seed nodes and NAT map, credentials from REDIS_URL, 6 shards, WAIT for 1 replica', () => {
    const config = loadConfig({
      ...complete,
      REDIS_URL: 'rediss://bot:secret@cluster.example.com:6380',
      REDIS_CLUSTER_NODES: 'redis-a.example.com:6379, 10.0.0.6:6379,[fd00::7]:6379',
      REDIS_CLUSTER_NAT_MAP: '10.0.0.5:6379=redis-a.example.com:16379',
    });
    expect(config.redis).toEqual({
      url: 'rediss://bot:secret@cluster.example.com:6380',
      cluster: {
        nodes: [
          { host: 'redis-a.example.com', port: 6379 },
          { host: '10.0.0.6', port: 6379 },
          { host: 'fd00::7', port: 6379 },
        ],
        natMap: { '10.0.0.5:6379': { host: 'redis-a.example.com', port: 16379 } },
      },
    });
    expect(config.queueShards).toBe(6);
    expect(config.redisWait).toEqual({ replicas: 1, timeoutMs: 500 });
    expect(loadConfig({ ...complete, REDIS_CLUSTER_NODES: 'a:1', QUEUE_SHARDS: '9' }).queueShards).toBe(9);
  });

  it('refuses nodes that are not host:port, a malformed NAT map and a wait longer than an ack allows', () => {
    for (const env of [
      { REDIS_CLUSTER_NODES: 'redis-a.example.com' },
      { REDIS_CLUSTER_NODES: 'a:1', REDIS_CLUSTER_NAT_MAP: '10.0.0.5:6379' },
      { REDIS_CLUSTER_NODES: 'a:1', REDIS_CLUSTER_WAIT_MS: '5000' },
      { QUEUE_SHARDS: '0' },
    ]) {
      expect(() => loadConfig({ ...complete, ...env }), JSON.stringify(env)).toThrow(ConfigError);
    }
  });

  it('shards: each its own slot, in its own sixth of the slots; a workspace always on the same one', () => {
    const names = shardNames({ shards: 6, cluster: true });
    expect(names).toHaveLength(6);
    names.forEach((name, i) => {
      expect(name).toMatch(/^operations-\d+-\{\d+\}$/);
      const slot = keySlot(`cs:${name}:wait`);
      expect(slot).toBeGreaterThanOrEqual(Math.floor((i * 16384) / 6));
      expect(slot).toBeLessThan(Math.floor(((i + 1) * 16384) / 6));
    });
    expect(shardOf('T123', 6)).toBe(shardOf('T123', 6));
    const used = new Set(Array.from({ length: 60 }, (_, i) => shardOf(`T${i}`, 6)));
    expect(used.size).toBe(6);
  });

  it("keys: a workspace's keys share one slot on a cluster, and keep their names on one Redis", () => {
    const tagged = keys({ prefix: 'cs', hashTags: true }, 'T123');
    expect(tagged.link('C1')).toBe('cs:t:{T123}:link:C1');
    expect(
      new Set(
        [tagged.link('C1'), tagged.links(), tagged.postCards('pst_1'), tagged.feedCarded('C9')].map(keySlot),
      ).size,
    ).toBe(1);
    expect(keys({ prefix: 'cs' }, 'T123').link('C1')).toBe('cs:t:T123:link:C1');
    // The slot Redis computes (CLUSTER KEYSLOT): known values.
    expect(keySlot('foo')).toBe(12182);
    expect(keySlot('{user1000}.following')).toBe(keySlot('user1000'));
  });
});
