/**
 * The floor of the worker, for bench:worker: a bare BullMQ worker in a process of its own doing
 * exactly the bot's resolvePost work — one POST to the service, one POST to the job's
 * response_url, with the bodies the bot sends — and nothing else (no step log, store, caches,
 * card lookups, rendering, metrics, budget).
 *
 * With `FLOOR_MARK=1` it is the floor of an exactly-once worker that tells inside the run
 * instead: between the two calls it also makes, as a Redis round trip of its own, the telling's
 * started mark in the job's log, fenced by the job's lock, with the post's cards' look-up (the
 * bot's own script, `store/cards.ts` `showingMarked`, on a connection of its own), the log of the
 * size the bot writes — as the bot's worker did before it sent that mark with the job's
 * completion (engine/tellAfterCompletion.ts).
 * Tells its parent `ready` over IPC once it takes jobs.
 */
import { Worker } from 'bullmq';
import { Pool } from 'undici';
import { createCollabClient } from '../src/collab/client.ts';
import { shownState } from '../src/jobs/cards.ts';
import { QUEUE_NAME } from '../src/operations/queue.ts';
import { cardStore } from '../src/store/cards.ts';
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

const prefix = env('QUEUE_PREFIX');
/** FLOOR_MARK=1: the floor of an exactly-once worker (the mark with the cards' look-up) */
const cards =
  process.env.FLOOR_MARK === '1'
    ? cardStore(connectRedis(env('REDIS_URL'), 'producer'), { prefix })
    : undefined;
/** BullMQ's default lock duration, which this worker's lock has */
const LOCK_MS = '30000';

const worker = new Worker(
  QUEUE_NAME,
  async (job, token) => {
    const data = job.data as {
      origin: { responseUrl: string; teamId: string };
      post: { id: string };
    };
    // The same requests as the bot's, byte for byte in shape: the service and Slack do the same
    // work for both (the attribution and the outcome with its link, without the bot's rendering).
    const post = await collab.resolvePost(data.post.id, {
      content_markdown: '_Resolved from Slack by Ada Lovelace_',
    });
    const text = `:white_check_mark: Resolved <${post.url ?? ''}|${post.title ?? post.id}>`;
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text } }];
    if (cards) {
      // A worker's run always holds a lock: without its token the mark could not be fenced.
      if (!token) throw new Error("the floor with the mark needs the run's lock token");
      const jobKey = `${prefix}:${QUEUE_NAME}:${job.id}`;
      // The log as the bot's telling writes it: the message kept, the telling started.
      const progress = JSON.stringify({
        steps: {
          'tell:message': {
            started: true,
            done: true,
            value: { message: { text, blocks }, replaceOriginal: true },
          },
          tell: { started: true, until: Date.now() + 30_000 },
        },
      });
      const shown = await cards.showingMarked(data.origin.teamId, post.id, shownState(post), {
        job: jobKey,
        lock: `${jobKey}:lock`,
        token,
        lockMs: LOCK_MS,
        progress,
        field: 'progress',
      });
      if (!shown) throw new Error('lost the lock');
    }
    const url = new URL(data.origin.responseUrl);
    const res = await poolFor(url.origin).request({
      method: 'POST',
      path: url.pathname,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        response_type: 'ephemeral',
        replace_original: true,
        text,
        blocks,
      }),
    });
    await res.body.text();
  },
  {
    // BullMQ's connection as the bot's worker has it (runtime.ts).
    connection: connectRedis(env('REDIS_URL'), 'worker'),
    prefix,
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
