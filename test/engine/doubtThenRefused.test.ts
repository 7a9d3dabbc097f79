/**
 * A comment whose first send timed out on the client and applied late on the service (within the
 * send's window: connect + answer timeouts + 2 s), and whose second send was refused.
 *
 * - The next run waits out the first send's window before it looks for what landed: looking at
 *   once (the retry comes ~50 ms after the timeout) saw no comment yet, sent again, and the late
 *   first send made it two comments.
 * - The refusal does not clear the first send's doubt: the comment is found rather than sent twice,
 *   and the person is told once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FaultEvent, HandledEvent } from '../../src/sandbox/emulator/index.ts';
import { originOf, responseTexts, run, unique } from '../jobs/helpers.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const COMMENTS = 'POST /v2/posts/{post_id}/comments';

describe('a send in doubt, then a refusal', () => {
  let h: Harness;
  beforeAll(async () => {
    // The harness's answers wait 2 s, its connects 1 s: a send's window is 1 + 2 × 2 + 2 = 7 s.
    h = await startHarness();
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  it('waits for the first send and finds it: one comment, the person told once', async () => {
    const org = h.emulator.org();
    const someone = org.authorOf([...org.members.values()].find((m) => !m.is_deactivated)!);
    const support = [...org.channels.values()].find((c) => c.name === 'support')!;
    const post = org.createPost(someone, { content_markdown: 'a post', channel_id: support.id });
    // 1st send: handled 3 s after it arrives, past the client's 2 s timeout (applied late);
    // the 2nd send, if any: refused.
    const late = h.emulator.faults.add({ route: COMMENTS, times: 1, latencyMs: 3000 });
    h.emulator.faults.add({ route: COMMENTS, times: 1, status: 503 });
    // The late send is applied whatever the job does: the count is taken only once it has been.
    const lateApplied = new Promise<void>((resolve) => {
      let held: FaultEvent['request'] | undefined;
      const onFault = ({ request, fault }: FaultEvent) => {
        if (fault.id === late) held = request;
      };
      const onHandled = ({ request }: HandledEvent) => {
        if (request !== held) return;
        h.emulator.events.off('fault', onFault);
        h.emulator.events.off('handled', onHandled);
        resolve();
      };
      h.emulator.events.on('fault', onFault);
      h.emulator.events.on('handled', onHandled);
    });
    const origin = originOf(h);
    const text = unique('late first send');
    const { state } = await run(h, 'createComment', { origin, post: { id: post.id }, text });
    await lateApplied;
    expect(state).toBe('completed');
    const ours = org.commentsOf(post.id).filter((c) => c.content_markdown.includes(text));
    expect(ours).toHaveLength(1);
    const finals = responseTexts(h, origin).filter((t) => !t.startsWith(':hourglass'));
    expect(finals).toHaveLength(1);
    expect(finals[0]).toContain('Comment added');
  }, 30_000);
});
