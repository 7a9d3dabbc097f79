/**
 * A person's Slack profile is asked for once. Operations of someone the bot has not seen yet,
 * taken by the worker together, all need their name: they share one `users.info` call instead
 * of each asking Slack (sixteen calls at once were seen in the worker benchmark's first turn).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADA, type Harness, startHarness } from '../support/harness.ts';
import { appPostsWith, originOf, unique } from './helpers.ts';

const OPERATIONS = 16;

describe("a new person's profile", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('is asked of Slack once when their operations run together', async () => {
    const worker = h.worker!;
    // Held back while they are queued, so the worker takes them together.
    await worker.pause();
    const texts = Array.from({ length: OPERATIONS }, (_, i) => unique(`together ${i}`));
    const queued = [];
    for (const text of texts) {
      const origin = originOf(h);
      queued.push(
        await h.bot.queue.enqueue(
          'createPost',
          { origin, channel: { name: 'engineering' }, content: text },
          { idempotencyKey: `people-${text}` },
        ),
      );
    }
    const settled = queued.map((q) => h.settled(q.jobId));
    worker.resume();
    expect(await Promise.all(settled)).toEqual(queued.map(() => 'completed'));

    for (const text of texts) expect(appPostsWith(h, text)).toHaveLength(1);
    const asked = h.slack.calls.filter((c) => c.method === 'users.info' && c.args.user === ADA);
    expect(asked).toHaveLength(1);
  });
});
