/**
 * A comment whose first send timed out on the client (and applied late on the service) and whose
 * second send was refused: the refusal does not clear the first send's doubt, so the comment is
 * found rather than sent twice, and the person is told once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';
import { originOf, responseTexts, run, unique } from './helpers.ts';

const COMMENTS = 'POST /v2/posts/{post_id}/comments';

describe('a send in doubt, then a refusal', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  it('keeps looking for the first send: one comment, the person told once', async () => {
    const org = h.emulator.org();
    const someone = org.authorOf([...org.members.values()].find((m) => !m.is_deactivated)!);
    const support = [...org.channels.values()].find((c) => c.name === 'support')!;
    const post = org.createPost(someone, { content_markdown: 'a post', channel_id: support.id });
    // 1st send: answered after the client's 2 s timeout (applied late); 2nd send: refused.
    h.emulator.faults.add({ route: COMMENTS, times: 1, latencyMs: 3000 });
    h.emulator.faults.add({ route: COMMENTS, times: 1, status: 503 });
    const origin = originOf(h);
    const text = unique('late first send');
    const { state } = await run(h, 'createComment', { origin, post: { id: post.id }, text });
    expect(state).toBe('completed');
    const ours = org.commentsOf(post.id).filter((c) => c.content_markdown.includes(text));
    expect(ours).toHaveLength(1);
    const finals = responseTexts(h, origin).filter((t) => !t.startsWith(':hourglass'));
    expect(finals).toHaveLength(1);
    expect(finals[0]).toContain('Comment added');
  }, 30_000);
});
