/**
 * See and retry failed jobs:
 *
 *   npm run jobs -- failed [--limit N]     lists failed jobs: id, operation, team, time, reason
 *   npm run jobs -- retry <id|all>         moves failed jobs back to waiting (a worker runs them again,
 *                                          from what they did, and tells the person the outcome)
 *
 * Reads REDIS_URL, REDIS_CLUSTER_NODES, QUEUE_PREFIX and QUEUE_SHARDS like the bot, and looks at
 * every shard. Failed jobs are kept 7 days (at most 5,000 per shard).
 */
import { pathToFileURL } from 'node:url';
import { type Job, Queue } from 'bullmq';
import { ConfigError, loadQueueConfig } from '../config.ts';
import { readLog, reopenedLog } from '../engine/index.ts';
import { shardNames } from '../operations/shards.ts';
import { connectRedis, whenReady } from '../store/redis.ts';

const USAGE = `Usage:
  npm run jobs -- failed [--limit N]   list failed jobs (newest first)
  npm run jobs -- retry <id|all>       run failed jobs again
`;

type Env = Record<string, string | undefined>;
type Write = (text: string) => void;

function teamOf(job: Job): string {
  const data = job.data as { origin?: { teamId?: unknown }; teamId?: unknown } | undefined;
  const team = data?.origin?.teamId ?? data?.teamId;
  return typeof team === 'string' ? team : '?';
}

function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

export function describeFailed(job: Job): string {
  const at = job.finishedOn ? new Date(job.finishedOn).toISOString() : '?';
  return [job.id ?? '?', job.name, teamOf(job), at, oneLine(job.failedReason || '?')].join('\t');
}

/** Runs the CLI; answers the exit code. */
export async function runJobsCli(argv: string[], env: Env, out: Write, err: Write): Promise<number> {
  const [command, arg] = argv;
  if (command !== 'failed' && command !== 'retry') {
    err(USAGE);
    return 2;
  }
  if (command === 'retry' && !arg) {
    err(USAGE);
    return 2;
  }
  let config: ReturnType<typeof loadQueueConfig>;
  try {
    config = loadQueueConfig(env);
  } catch (error) {
    err(`${error instanceof ConfigError ? error.message : String(error)}\n`);
    return 2;
  }
  const redis = connectRedis(config.redis, 'worker');
  const names = shardNames({ shards: config.queueShards, cluster: config.redis.cluster !== undefined });
  const queues = names.map((name) => new Queue(name, { connection: redis, prefix: config.prefix }));
  for (const queue of queues) queue.on('error', () => {});
  const failedOf = async (limit: number) =>
    (await Promise.all(queues.map((queue) => queue.getFailed(0, limit - 1))))
      .flat()
      .filter((j): j is Job => j !== undefined)
      .sort((a, b) => (b.finishedOn ?? 0) - (a.finishedOn ?? 0));
  try {
    await whenReady(redis, 5000);
    if (command === 'failed') {
      const limitAt = argv.indexOf('--limit');
      const limit = limitAt >= 0 ? Math.max(1, Number(argv[limitAt + 1]) || 50) : 50;
      const jobs = (await failedOf(limit)).slice(0, limit);
      const total = (await Promise.all(queues.map((queue) => queue.getFailedCount()))).reduce(
        (sum, n) => sum + n,
        0,
      );
      if (jobs.length === 0) {
        out('No failed jobs.\n');
        return 0;
      }
      out(`id\toperation\tteam\tfailed at\treason\n`);
      for (const job of jobs) out(`${describeFailed(job)}\n`);
      if (total > jobs.length) out(`(${jobs.length} of ${total}; --limit N shows more)\n`);
      return 0;
    }
    const targets =
      arg === 'all'
        ? await failedOf(0)
        : (await Promise.all(queues.map((queue) => queue.getJob(arg!)))).filter(
            (j): j is Job => j !== undefined,
          );
    if (targets.length === 0) {
      err(arg === 'all' ? 'No failed jobs.\n' : `No job ${arg}.\n`);
      return arg === 'all' ? 0 : 1;
    }
    let retried = 0;
    for (const job of targets) {
      if ((await job.getState()) !== 'failed') {
        err(`Job ${job.id} is not failed; left alone.\n`);
        continue;
      }
      // The run goes on from what it did, with its attempts anew, and tells its outcome.
      await job.updateProgress(reopenedLog(readLog(job)) as unknown as object);
      await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      retried += 1;
      out(`retried ${job.id} (${job.name}, team ${teamOf(job)})\n`);
    }
    return retried > 0 || arg === 'all' ? 0 : 1;
  } catch (error) {
    err(`jobs: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await Promise.all(queues.map((queue) => queue.close().catch(() => {})));
    redis.disconnect();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runJobsCli(
    process.argv.slice(2),
    process.env,
    (t) => process.stdout.write(t),
    (t) => process.stderr.write(t),
  ).then((code) => process.exit(code));
}
