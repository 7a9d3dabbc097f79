/**
 * A sweep of stalled-out jobs (stalledUnsettled.test.ts) whose settling Redis refuses: the Redis
 * is out of memory (`maxmemory` reached under `noeviction`), so reads answer and writes are
 * refused. The sweep had already read past the job: it was never looked at again, and the person
 * was told nothing, for good. Now a job whose settling failed is tried again by the next sweeps.
 * Runs on a redis-server of the test's own, as the memory limit would disturb every other test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLog } from '../../src/engine/stepLog.ts';
import { connectRedis, type Redis } from '../../src/store/redis.ts';
import { type OwnRedis, startOwnRedis } from '../faults/support/redis-server.ts';
import { originOf, unique } from '../jobs/helpers.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { captureLogs } from '../support/log-capture.ts';
import { expectPostedOnce, losingRuns, STALLING_ENV, toldAt } from './stalling.ts';

describe('a sweep whose settling Redis refuses', () => {
  let own: OwnRedis;
  let admin: Redis;
  let h: Harness;
  const logs = captureLogs();
  beforeAll(async () => {
    own = await startOwnRedis({ appendonly: 'no' });
    admin = connectRedis(own.url, 'worker');
    h = await startHarness({ env: { ...STALLING_ENV, REDIS_URL: own.url }, logs });
  });
  afterAll(async () => {
    await admin?.config('SET', 'maxmemory', '0').catch(() => {});
    await h?.close();
    admin?.disconnect();
    await own?.close();
  });

  it('settles the job once Redis takes writes again: the card is posted and "Posted" told once', async () => {
    const text = unique('sweep refused');
    const origin = originOf(h);
    const { jobId, stalledOut, detach } = await losingRuns(
      h,
      'createPost',
      { origin, channel: { name: 'engineering' }, content: text },
      'POST /v2/posts',
      (job) => !readLog(job).stalledRerun,
      { unsettled: true },
    );
    try {
      await stalledOut;
      // Within the sweep's grace (the 1 s lock): Redis refuses writes before any sweep settles it.
      await admin.config('SET', 'maxmemory', '1');
      await logs.waitFor(
        (line) => line.msg === 'could not settle a stalled-out job' && line.jobId === jobId,
        15_000,
      );
      await admin.config('SET', 'maxmemory', '0');
      await toldAt(h, origin, 'Posted to');
      expect(await h.settled(jobId)).toBe('completed');
    } finally {
      detach();
    }
    expectPostedOnce(h, origin, text);
  }, 60_000);
});
