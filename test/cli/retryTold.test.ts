/**
 * `npm run jobs -- retry <id>` of a job whose failure the person was told. The worker refuses to
 * run a job marked "told it failed" (a run after the telling must tell nothing else), so such a
 * retry failed again at once, silently, while the CLI said "retried". Now the retry reopens the
 * job's log: what it did stays done, its attempts start anew, and the person hears the outcome.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runJobsCli } from '../../src/cli/jobs.ts';
import { originOf, postWithCard, responseTexts, unique } from '../jobs/helpers.ts';
import { type Harness, REDIS_URL, startHarness } from '../support/harness.ts';

const RESOLUTION = 'POST /v2/posts/{post_id}/resolution';

describe('retrying a job whose failure was told', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  it('runs it again and tells the person the new outcome', async () => {
    const { post, title } = await postWithCard(h, unique('Retried resolve'));
    const origin = originOf(h);
    // The service refuses once: the person is told it could not be done, and the job fails.
    h.emulator.faults.add({ route: RESOLUTION, status: 403, times: 1 });
    const queued = await h.bot.queue.enqueue(
      'resolvePost',
      { origin, post: { id: post.id } },
      { idempotencyKey: `test-${randomBytes(8).toString('hex')}` },
    );
    expect(await h.settled(queued.jobId)).toBe('failed');
    expect(responseTexts(h, origin)).toHaveLength(1);
    expect(responseTexts(h, origin)[0]).toContain(':warning:');

    let out = '';
    const code = await runJobsCli(
      ['retry', queued.jobId],
      { REDIS_URL, QUEUE_PREFIX: h.prefix },
      (t) => (out += t),
      () => {},
    );
    expect(code).toBe(0);
    expect(out).toContain(`retried ${queued.jobId}`);
    const told = await h.slack.waitFor(
      (c) => c.path === `/response/${origin.responseId}` && String(c.args.text).includes('Resolved'),
    );
    expect(String(told.args.text)).toContain(title);
    expect(await h.settled(queued.jobId)).toBe('completed');
    expect(h.emulator.org().posts.get(post.id)?.resolution).toBeTruthy();
    expect(responseTexts(h, origin)).toHaveLength(2);
  });
});
