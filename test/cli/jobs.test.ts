/** `npm run jobs -- failed | retry <id|all>`: lists failed jobs with operation, team, time and reason; retries them. */
import { randomBytes } from 'node:crypto';
import { Queue, QueueEvents, UnrecoverableError, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJobsCli } from '../../src/cli/jobs.ts';
import { connectRedis } from '../../src/store/redis.ts';
import { REDIS_URL } from '../support/harness.ts';

const prefix = `test-cli-${randomBytes(6).toString('hex')}`;
const env = { REDIS_URL, QUEUE_PREFIX: prefix };
const connection = connectRedis(REDIS_URL, 'worker');
const queue = new Queue('operations', { connection, prefix });
let events: QueueEvents;
let failIt = true;
let worker: Worker;

async function run(argv: string[]) {
  let out = '';
  let err = '';
  const code = await runJobsCli(
    argv,
    env,
    (t) => (out += t),
    (t) => (err += t),
  );
  return { code, out, err };
}

beforeAll(async () => {
  events = new QueueEvents('operations', { connection: connectRedis(REDIS_URL, 'worker'), prefix });
  await events.waitUntilReady();
  worker = new Worker(
    'operations',
    async () => {
      if (failIt) throw new UnrecoverableError('the service said 403');
    },
    { connection: connectRedis(REDIS_URL, 'worker'), prefix },
  );
  const failed = new Promise((resolve) => events.once('failed', resolve));
  await queue.add('createPost', { origin: { teamId: 'T_CLI' } }, { jobId: 'op-cli-1' });
  await failed;
});
afterAll(async () => {
  await worker.close();
  await events.close();
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
});

describe('the jobs CLI', () => {
  it('lists failed jobs: id, operation, team, time, reason', async () => {
    const { code, out } = await run(['failed']);
    expect(code).toBe(0);
    expect(out).toMatch(/op-cli-1\tcreatePost\tT_CLI\t\d{4}-\d\d-\d\dT[\d:.]+Z\tthe service said 403/);
  });

  it('retries one failed job by id', async () => {
    failIt = false;
    const completed = new Promise<{ jobId: string }>((resolve) => events.once('completed', resolve));
    const { code, out } = await run(['retry', 'op-cli-1']);
    expect(code).toBe(0);
    expect(out).toContain('retried op-cli-1');
    expect((await completed).jobId).toBe('op-cli-1');
    expect((await run(['failed'])).out).toContain('No failed jobs.');
  });

  it('says how to use it, and fails on an unknown job', async () => {
    expect((await run([])).code).toBe(2);
    expect((await run(['retry'])).err).toContain('Usage');
    expect((await run(['retry', 'op-nope'])).code).toBe(1);
    expect((await run(['retry', 'all'])).code).toBe(0);
  });
});
