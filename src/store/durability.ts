/**
 * Whether the Redis of the queue keeps what it acknowledged: read at start by the web and worker
 * roles, refused under NODE_ENV=production when it would lose or evict queued work, reported by
 * `/readyz`.
 *
 * - `appendonly no`: a restart loses every queued job, claim and step log since the last RDB
 *   snapshot (all of them with `save ""`). Refused.
 * - `maxmemory-policy` other than `noeviction`: under memory pressure Redis deletes keys, queued
 *   jobs and idempotency claims among them. Refused.
 * - `appendfsync no`: the kernel writes the AOF when it likes (~30 s): a machine crash loses that
 *   much. Refused. `everysec`: Redis may answer while it holds its AOF write back behind a running
 *   fsync, so a crash of Redis or its machine can lose the last second or two of acknowledged
 *   writes; warned, `always` closes it (RELIABILITY.md, "Why always").
 *
 * Managed Redis services often forbid `CONFIG`. Then `INFO persistence` and `INFO memory` say
 * whether the AOF is on (`aof_enabled`) and the eviction policy (`maxmemory_policy`); the fsync
 * policy is then unknown and assumed to be the service's (`everysec` on the common ones). If INFO
 * is forbidden too, nothing is known: a warning, and the settings are assumed to be right.
 *
 * On a Redis Cluster every master is read (each holds its own share of the queues and claims);
 * a problem of one names its address. Replicas take the settings their masters had when they
 * are promoted only if configured alike: managed clusters are; a hand-built one must be.
 */
import { isCluster, masters, type Redis } from './redis.ts';

export interface RedisDurability {
  /** where the settings were read from */
  source: 'config' | 'info' | 'unknown';
  appendonly?: string;
  appendfsync?: string;
  save?: string;
  maxmemoryPolicy?: string;
  /** each names the setting, what it risks and the fix; non-empty = would lose or evict work */
  problems: string[];
  /** risks that do not stop a start */
  warnings: string[];
}

/** The override variable that lets a production start accept the problems. */
export const ALLOW_VOLATILE_VARIABLE = 'REDIS_ALLOW_VOLATILE';

async function configGet(redis: Redis, name: string): Promise<string | undefined> {
  const answer = (await redis.call('CONFIG', 'GET', name)) as string[];
  return Array.isArray(answer) && answer.length >= 2 ? String(answer[1]) : undefined;
}

function infoField(info: string, field: string): string | undefined {
  const line = info.split(/\r?\n/).find((l) => l.startsWith(`${field}:`));
  return line?.slice(field.length + 1).trim();
}

/** Reads the settings (CONFIG GET, else INFO) — of every master on a cluster; never throws. */
export async function readDurability(redis: Redis): Promise<RedisDurability> {
  if (!isCluster(redis)) return readNode(redis);
  const nodes = masters(redis);
  const read = await Promise.all(nodes.map((node) => readNode(node)));
  if (read.length === 0) return judge({ source: 'unknown' });
  const order = { config: 0, info: 1, unknown: 2 } as const;
  const worst = read.reduce((a, b) => (order[b.source] > order[a.source] ? b : a));
  const named = (node: (typeof nodes)[number], text: string) =>
    `${node.options.host}:${node.options.port}: ${text}`;
  return {
    ...worst,
    problems: read.flatMap((r, i) => r.problems.map((p) => named(nodes[i]!, p))),
    warnings: [...new Set(read.flatMap((r) => r.warnings))],
  };
}

async function readNode(redis: Redis): Promise<RedisDurability> {
  try {
    const [appendonly, appendfsync, save, maxmemoryPolicy] = await Promise.all(
      ['appendonly', 'appendfsync', 'save', 'maxmemory-policy'].map((name) => configGet(redis, name)),
    );
    return judge({ source: 'config', appendonly, appendfsync, save, maxmemoryPolicy });
  } catch {
    // CONFIG is forbidden (managed Redis) or renamed: fall back to INFO.
  }
  try {
    const persistence = await redis.info('persistence');
    const memory = await redis.info('memory');
    const aof = infoField(persistence, 'aof_enabled');
    return judge({
      source: 'info',
      ...(aof !== undefined ? { appendonly: aof === '1' ? 'yes' : 'no' } : {}),
      ...optional('maxmemoryPolicy', infoField(memory, 'maxmemory_policy')),
    });
  } catch {
    return judge({ source: 'unknown' });
  }
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

function judge(read: Omit<RedisDurability, 'problems' | 'warnings'>): RedisDurability {
  const problems: string[] = [];
  const warnings: string[] = [];
  if (read.appendonly === 'no') {
    const lost = read.save
      ? `everything since the last RDB snapshot (save "${read.save}")`
      : 'every queued operation (save is off too)';
    problems.push(
      `appendonly is "no": a Redis restart loses ${lost}. Fix: appendonly yes (CONFIG SET appendonly yes, and in redis.conf).`,
    );
  }
  if (read.maxmemoryPolicy !== undefined && read.maxmemoryPolicy !== 'noeviction') {
    problems.push(
      `maxmemory-policy is "${read.maxmemoryPolicy}": Redis may evict queued jobs and idempotency claims when memory is full. Fix: maxmemory-policy noeviction.`,
    );
  }
  if (read.appendonly !== 'no' && read.appendfsync === 'no') {
    problems.push(
      'appendfsync is "no": a machine crash loses up to ~30 s of acknowledged writes. Fix: appendfsync always (or everysec).',
    );
  }
  if (read.appendonly !== 'no' && read.appendfsync === 'everysec') {
    warnings.push(
      'appendfsync is "everysec": a crash of Redis or its machine can lose the last second or two of acknowledged writes (an operation acknowledged to a person, then never run nor told). Fix: appendfsync always (RELIABILITY.md, "Why always").',
    );
  }
  if (read.source === 'unknown') {
    warnings.push(
      'Redis forbids both CONFIG and INFO: its persistence and eviction settings are unknown and assumed to be appendonly yes and maxmemory-policy noeviction.',
    );
  } else if (read.source === 'info') {
    warnings.push(
      'Redis forbids CONFIG (a managed service?): read from INFO; appendfsync is unknown and assumed to be everysec.',
    );
  }
  return { ...read, problems, warnings };
}

export class VolatileRedisError extends Error {
  override name = 'VolatileRedisError';
}

/**
 * The start-up check. Under production a Redis with problems throws VolatileRedisError (the
 * process exits 1 with its message), unless `allowVolatile`; elsewhere the problems are warnings.
 */
export async function checkDurability(
  redis: Redis,
  options: {
    production: boolean;
    allowVolatile: boolean;
    /** the sandbox: nothing it queues outlives it anyway, so the problems are not worth a warning */
    volatileByDesign?: boolean | undefined;
    logger: { warn(obj: object, msg: string): void };
  },
): Promise<RedisDurability> {
  const found = await readDurability(redis);
  for (const warning of found.warnings) options.logger.warn({ redis: 'durability' }, warning);
  if (found.problems.length === 0) return found;
  if (options.volatileByDesign && !options.production) return found;
  if (options.production && !options.allowVolatile) {
    throw new VolatileRedisError(
      `Redis would lose or evict queued work:\n- ${found.problems.join('\n- ')}\n` +
        `Fix the setting(s), or set ${ALLOW_VOLATILE_VARIABLE}=true to start anyway and accept the risk.`,
    );
  }
  for (const problem of found.problems) {
    options.logger.warn(
      { redis: 'durability' },
      `${problem}${options.production ? ` (started anyway: ${ALLOW_VOLATILE_VARIABLE}=true)` : ''}`,
    );
  }
  return found;
}
