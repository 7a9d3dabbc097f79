/**
 * An operation whose last attempt ends in doubt: the create was sent but its answer lost (a
 * dropped connection, a timeout), so whether it landed is unknown. Found by the fault suite
 * (test/faults/): a post that existed was reported "Could not create the post".
 *
 * - The worker does not give up on a doubt: the job runs once more (without spending an
 *   attempt), and the step log's recover finds what landed.
 * - If the doubt cannot be settled (the service keeps failing), the person is told it may have
 *   gone through — never a plain failure for something that may exist.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appPostsWith, originOf, responseTexts, run, unique } from '../jobs/helpers.ts';
import { type Harness, startHarness } from '../support/harness.ts';

describe('a last attempt that ends in doubt', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  const createPost = (text: string, origin = originOf(h)) =>
    run(h, 'createPost', { origin, channel: { name: 'engineering' }, content: text });

  it('runs once more to settle it: the post that landed is found, and the person told it was posted', async () => {
    // Attempts 1-3 (of 4) answer 503; the 4th applies the create and drops the connection.
    h.emulator.faults.add({ route: 'POST /v2/posts', status: 503, times: 3 });
    h.emulator.faults.add({ route: 'POST /v2/posts', drop: 'afterApply', times: 1 });
    const origin = originOf(h);
    const text = unique('landed on the last attempt');
    const { state } = await createPost(text, origin);
    expect(state).toBe('completed');
    expect(appPostsWith(h, text)).toHaveLength(1);
    expect(responseTexts(h, origin).at(-1)).toContain('Posted to #engineering');
  });

  it('when the doubt cannot be settled, the person hears that it may have gone through', async () => {
    h.emulator.faults.add({ route: 'POST /v2/posts', drop: 'afterApply', times: 1 });
    // Every look for what landed fails from then on.
    h.emulator.faults.add({ route: 'GET /v2/posts', status: 503, times: Infinity });
    const origin = originOf(h);
    const text = unique('in doubt');
    const { state } = await createPost(text, origin);
    expect(state).toBe('failed');
    expect(appPostsWith(h, text)).toHaveLength(1);
    const final = responseTexts(h, origin).at(-1) ?? '';
    expect(final).toMatch(/^:warning: /);
    expect(final).toContain('may have gone through');
  });
});
