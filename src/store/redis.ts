/**
 * Redis connections. Two kinds, as BullMQ needs them:
 * - producers (the web role, the store) fail fast while Redis is away — and give up on a command
 *   after 1.5 s if Redis accepted the connection but stopped answering — so Slack hears
 *   "try again" within its 3 s instead of a timeout;
 * - workers block on Redis and must never give up a command (`maxRetriesPerRequest: null`).
 *
 * A target is one Redis (`REDIS_URL`) or a Redis Cluster (`REDIS_CLUSTER_NODES`, with the user,
 * password and TLS of `REDIS_URL`): either way the app holds a `Redis` — ioredis's `Redis` or its
 * `Cluster`, which answer the same commands. On a cluster every command, script and MULTI must
 * keep its keys in one slot (hash tags: store/keys.ts, operations/shards.ts).
 */
import { Cluster, type ClusterOptions, type RedisOptions, Redis as SingleRedis } from 'ioredis';

export type Redis = SingleRedis | Cluster;
export { Cluster };

export type ConnectionRole = 'producer' | 'worker';

export interface ClusterTarget {
  /** seed nodes; the others are discovered with CLUSTER SLOTS */
  nodes: Array<{ host: string; port: number }>;
  /** addresses the nodes announce -> addresses this process reaches them at (NAT, containers) */
  natMap?: Record<string, { host: string; port: number }> | undefined;
}

/** Where Redis is: `url` alone, or a cluster whose credentials and TLS come from `url`. */
export interface RedisTarget {
  url: string;
  cluster?: ClusterTarget | undefined;
}

export function redisOptions(role: ConnectionRole): RedisOptions {
  const common: RedisOptions = {
    lazyConnect: false,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 6), 2000),
  };
  return role === 'producer'
    ? {
        ...common,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        commandTimeout: 1500,
        // While Redis is away every Slack request is refused ("try again"): look for it again
        // twice a second, so the web role is back within ~0.5 s of Redis (the fault suite saw
        // ~1.5 s of extra refusals with the worker's 2 s cap).
        retryStrategy: (times: number) => Math.min(50 * 2 ** Math.min(times, 6), 500),
      }
    : {
        ...common,
        maxRetriesPerRequest: null,
      };
}

export function connectRedis(url: string, role: ConnectionRole): SingleRedis;
export function connectRedis(target: string | RedisTarget, role: ConnectionRole): Redis;
export function connectRedis(target: string | RedisTarget, role: ConnectionRole): Redis {
  const { url, cluster } = typeof target === 'string' ? { url: target, cluster: undefined } : target;
  const redis: Redis = cluster
    ? new Cluster(cluster.nodes, clusterOptions(url, cluster, role))
    : new SingleRedis(url, redisOptions(role));
  // Errors are reported by the commands that fail; a listener keeps ioredis from logging them loudly.
  redis.on('error', () => {});
  if (cluster) redis.on('node error', () => {});
  return redis;
}

/**
 * A cluster's options: each node's connection is the role's (credentials and TLS from `url`);
 * the cluster as a whole retries like the role, and follows a failover (MOVED, CLUSTERDOWN) by
 * refreshing its slot map.
 */
/**
 * How many redirections a worker's command follows before it fails (100 ms apart while a slot's
 * master is away): ~30 s, longer than a failover's election (`cluster-node-timeout`, 15 s by
 * default, and the vote). With ioredis's 16 (~1.6 s), a job's completion sent while the slot was
 * moving failed with "Too many Cluster redirections", which BullMQ takes for the job failing, not
 * for Redis being away: the finished job ran again and told its outcome a second time
 * (test/cluster/failover.test.ts, no connection auto-pipelined: 2 of 8 runs, and 0 of 8 with
 * this). A producer still fails fast: the person is told to try again.
 */
export const WORKER_MAX_REDIRECTIONS = 300;

export function clusterOptions(url: string, cluster: ClusterTarget, role: ConnectionRole): ClusterOptions {
  const { retryStrategy, enableOfflineQueue, lazyConnect, ...node } = redisOptions(role);
  const parsed = new URL(url);
  const tls = parsed.protocol === 'rediss:';
  return {
    lazyConnect: lazyConnect ?? false,
    ...(enableOfflineQueue === false ? { enableOfflineQueue: false } : {}),
    clusterRetryStrategy: (times) => retryStrategy?.(times) ?? 2000,
    retryDelayOnFailover: 100,
    ...(role === 'worker' ? { maxRedirections: WORKER_MAX_REDIRECTIONS } : {}),
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    slotsRefreshTimeout: 2000,
    // The slot map is read again every second: after a failover, slots nobody is writing to
    // right now still find their new master within ~1 s (one CLUSTER SLOTS a second).
    slotsRefreshInterval: 1000,
    ...(cluster.natMap ? { natMap: cluster.natMap } : {}),
    // TLS checks the certificate against the name the nodes are reached at: keep names unresolved.
    ...(tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
    redisOptions: {
      ...node,
      ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
      ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
      ...(tls ? { tls: {} } : {}),
    },
  };
}

export function isCluster(redis: Redis): redis is Cluster {
  return redis instanceof Cluster;
}

/**
 * Holds one Redis's writes until this turn of the event loop ends, so that the commands sent in
 * this turn leave in one write, in the order they were sent (a cluster's go as they are).
 */
export function corkTurn(redis: Redis): void {
  if (isCluster(redis) || redis.status !== 'ready') return;
  const stream = redis.stream as SingleRedis['stream'] | undefined;
  if (!stream || stream.writableCorked > 0) return;
  stream.cork();
  setImmediate(() => stream.uncork());
}

/** Every master of a cluster, or the one Redis. */
export function masters(redis: Redis): SingleRedis[] {
  return isCluster(redis) ? redis.nodes('master') : [redis];
}

/**
 * `WAIT numReplicas timeoutMs` on each master that holds one of `keys`: resolves once the writes
 * this connection sent to those masters reached `numReplicas` replicas each (fewer if a master
 * has fewer connected), or after `timeoutMs`. A cluster's replication is asynchronous: a master
 * that fails right after an acknowledged write can leave a promoted replica without it; this
 * narrows that to writes not replicated within the timeout (RELIABILITY.md).
 *
 * - One WAIT per master (it covers every earlier write of this connection to it): two WAITs on
 *   one connection would queue behind each other.
 * - A master with no replica connected is not waited for: no replica can be promoted in its place
 *   (its own AOF keeps the write), and a WAIT would only cost its whole timeout.
 * - A WAIT that fails throws: the write's fate is unknown, and the caller must not go on as if it
 *   were kept (an enqueue answers "try again", a step does not send).
 * Nothing to do on one Redis.
 */
export async function waitReplicas(
  redis: Redis,
  keys: readonly string[],
  numReplicas: number,
  timeoutMs: number,
): Promise<void> {
  if (!isCluster(redis) || numReplicas <= 0) return;
  const nodes = new Set<SingleRedis>();
  for (const key of keys) {
    const node = nodeOf(redis, key);
    if (!node) throw new Error(`no master known for the slot of ${key}`);
    nodes.add(node);
  }
  await Promise.all(
    [...nodes].map(async (node) => {
      const replicas = Math.min(numReplicas, await connectedReplicas(node));
      if (replicas === 0) return;
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          node.call('WAIT', String(replicas), String(timeoutMs)),
          // WAIT ends at its own timeout; a node that went away mid-WAIT must not hold the caller.
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('WAIT did not answer')), timeoutMs + 2000);
          }),
        ]);
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}

/** A master's connected replicas (INFO replication), read at most once a second per node. */
const replicaCounts = new WeakMap<SingleRedis, { at: number; count: number }>();
async function connectedReplicas(node: SingleRedis): Promise<number> {
  const known = replicaCounts.get(node);
  if (known && Date.now() - known.at < 1000) return known.count;
  const info = await node.info('replication');
  const count = Number(/^connected_slaves:(\d+)/m.exec(info)?.[1] ?? '0');
  replicaCounts.set(node, { at: Date.now(), count });
  return count;
}

/** The connection of the master that serves `key`'s slot, as ioredis's slot map knows it. */
function nodeOf(cluster: Cluster, key: string): SingleRedis | undefined {
  const slot = keySlot(key);
  const [master] = cluster.slots[slot] ?? [];
  if (master === undefined) return undefined;
  return cluster.nodes('master').find((node) => `${node.options.host}:${node.options.port}` === master);
}

/** Redis Cluster's slot of a key: CRC16 (XMODEM) of its hash tag, or of the whole key, mod 16384. */
export function keySlot(key: string): number {
  const open = key.indexOf('{');
  let hashed = key;
  if (open !== -1) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) hashed = key.slice(open + 1, close);
  }
  let crc = 0;
  for (const byte of Buffer.from(hashed)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

/** Resolves once the connection is ready, or rejects after `timeoutMs`. */
export async function whenReady(redis: Redis, timeoutMs = 3000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}

/**
 * Deletes every key matching `pattern` (SCAN + UNLINK, a page at a time); answers how many. On a
 * cluster every master is scanned, and keys are unlinked one command each (a page may span slots).
 */
export async function deleteKeys(redis: Redis, pattern: string): Promise<number> {
  let deleted = 0;
  for (const node of masters(redis)) {
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (found.length === 0) continue;
      if (isCluster(redis)) {
        const counts = await Promise.all(found.map((key) => redis.unlink(key)));
        deleted += counts.reduce((sum, n) => sum + n, 0);
      } else deleted += await node.unlink(...found);
    } while (cursor !== '0');
  }
  return deleted;
}
