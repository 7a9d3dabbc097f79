/**
 * A comment whose send was refused (503, 429: the service said it did not apply it) is not in
 * doubt: the retry sends it again, without asking the post's comment count whether it landed.
 * Before, the retry ran the count recovery anyway, so a comment by someone else during the
 * backoff was taken for the person's: nothing was sent, and the person was told "Comment added".
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FaultEvent } from '../../src/sandbox/emulator/index.ts';
import { originOf, responseTexts, run, unique } from '../jobs/helpers.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const COMMENTS = 'POST /v2/posts/{post_id}/comments';

describe('a refused comment, someone else commenting during the backoff', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  it.each([
    ['503', { status: 503 }],
    ['429 without Retry-After', { status: 429 }],
  ])('%s: the retry still sends it; one comment by the app, the person told once', async (_, fault) => {
    const org = h.emulator.org();
    const someone = org.authorOf([...org.members.values()].find((m) => !m.is_deactivated)!);
    const support = [...org.channels.values()].find((c) => c.name === 'support')!;
    const post = org.createPost(someone, { content_markdown: 'a shared post', channel_id: support.id });
    h.emulator.faults.add({ route: COMMENTS, times: 1, ...fault });
    // The moment the send is refused, someone else comments on the same post.
    const onFault = ({ request }: FaultEvent) => {
      if (request.route === COMMENTS) org.createComment(someone, post.id, { content_markdown: 'me too' });
    };
    h.emulator.events.on('fault', onFault);
    try {
      const origin = originOf(h);
      const text = unique('refused first');
      const { state } = await run(h, 'createComment', { origin, post: { id: post.id }, text });
      expect(state).toBe('completed');
      const ours = org.commentsOf(post.id).filter((c) => c.content_markdown.includes(text));
      expect(ours).toHaveLength(1);
      expect(ours[0]!.author.type).toBe('app');
      const finals = responseTexts(h, origin).filter((t) => !t.startsWith(':hourglass'));
      expect(finals).toHaveLength(1);
      expect(finals[0]).toContain('Comment added');
    } finally {
      h.emulator.events.off('fault', onFault);
    }
  });
});
