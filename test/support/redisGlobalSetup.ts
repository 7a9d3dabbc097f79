/**
 * vitest globalSetup: the tests' Redis. REDIS_URL (default redis://127.0.0.1:6379) if it answers;
 * else a private `redis-server` on a free loopback port for this run (nothing kept on disk),
 * stopped at the end, as the sandbox does (src/sandbox/redis.ts); else one line saying how to get
 * one. Tests read the address from REDIS_URL only (test/support/harness.ts), which the forks
 * inherit from here.
 */
import {
  DEFAULT_REDIS_URL,
  findOnPath,
  type PrivateRedis,
  redisAnswers,
  startPrivateRedis,
} from '../../src/sandbox/redis.ts';

function hostPort(url: string): { host: string; port: number } {
  try {
    const parsed = new URL(url);
    return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || '6379') };
  } catch {
    return { host: '127.0.0.1', port: 6379 };
  }
}

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const configured = process.env.REDIS_URL?.trim() || DEFAULT_REDIS_URL;
  const { host, port } = hostPort(configured);
  if (await redisAnswers(host, port, 1000)) {
    process.env.REDIS_URL = configured;
    return undefined;
  }
  const binary = findOnPath('redis-server');
  if (binary === undefined) {
    const line = `Tests need Redis: nothing answers on ${configured} and there is no redis-server on PATH. Install one (sudo apt-get install redis-server, or brew install redis) or set REDIS_URL to a Redis you have.`;
    console.warn(line);
    // Said again last, where it is seen after the failures it explains.
    return async () => console.warn(line);
  }
  let redis: PrivateRedis;
  try {
    redis = await startPrivateRedis(binary);
  } catch (error) {
    console.warn(
      `Tests need Redis: nothing answers on ${configured}, and ${binary} did not start: ${String(error)}`,
    );
    return undefined;
  }
  process.env.REDIS_URL = redis.url;
  console.info(`Nothing answers on ${configured}: the tests use a private redis-server on ${redis.url}.`);
  return () => redis.stop();
}
