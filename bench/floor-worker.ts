/**
 * The floor of the worker, for bench:worker: a bare BullMQ worker in a process of its own doing
 * exactly the bot's resolvePost work — one POST to the service, one POST to the job's
 * response_url, with the bodies the bot sends — and nothing else (no step log, store, caches,
 * card lookups, rendering, metrics, budget).
 * Tells its parent `ready` over IPC once it takes jobs.
 */
import { Worker } from 'bullmq';
import { Pool } from 'undici';
import { createCollabClient } from '../src/collab/client.ts';
import { QUEUE_NAME } from '../src/operations/queue.ts';
import { connectRedis } from '../src/store/redis.ts';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`floor-worker needs ${name}`);
  return value;
};
const concurrency = Number(env('WORKER_CONCURRENCY'));
const collab = createCollabClient({
  baseUrl: env('COLLAB_API_URL'),
  apiKey: env('COLLAB_API_KEY'),
  connections: Math.max(16, concurrency),
});
const responses = new Map<string, Pool>();
const poolFor = (origin: string) => {
  let pool = responses.get(origin);
  if (!pool) {
    pool = new Pool(origin, { connections: Math.max(16, concurrency) });
    responses.set(origin, pool);
  }
  return pool;
};

const worker = new Worker(
  QUEUE_NAME,
  async (job) => {
    const data = job.data as { origin: { responseUrl: string }; post: { id: string } };
    // The same requests as the bot's, byte for byte in shape: the service and Slack do the same
    // work for both (the attribution and the outcome with its link, without the bot's rendering).
    const post = await collab.resolvePost(data.post.id, {
      content_markdown: '_Resolved from Slack by Ada Lovelace_',
    });
    const text = `:white_check_mark: Resolved <${post.url ?? ''}|${post.title ?? post.id}>`;
    const url = new URL(data.origin.responseUrl);
    const res = await poolFor(url.origin).request({
      method: 'POST',
      path: url.pathname,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        response_type: 'ephemeral',
        replace_original: true,
        text,
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
      }),
    });
    await res.body.text();
  },
  {
    // BullMQ's connection as the bot's worker has it (runtime.ts).
    connection: connectRedis(env('REDIS_URL'), 'worker'),
    prefix: env('QUEUE_PREFIX'),
    concurrency,
  },
);
worker.on('error', () => {});
await worker.waitUntilReady();
process.send?.('ready');
process.on('SIGTERM', () => {
  void worker.close().then(async () => {
    await collab.close();
    await Promise.all([...responses.values()].map((p) => p.close()));
    process.exit(0);
  });
});
