/**
 * A write that landed, and a failure after it. Found by the fault suite (seeds 603748599 and
 * 245302068, a comment near the end of each run): a comment refused on its first attempts landed
 * on the last one, then the read of the post for its cards was answered 503, and the person
 * heard "Could not add the comment: the service is unavailable" — for a comment that was there.
 *
 * - createComment: once the comment is in the service, a failed read-back only leaves the cards
 *   as they were; the person is told it was added.
 * - The worker: whatever fails after a write that landed, the person is never told "could not":
 *   they hear that it went through.
 */
import type { Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createReliableWorker } from '../../src/engine/index.ts';
import type { Processors } from '../../src/jobs/context.ts';
import { processors } from '../../src/jobs/processors/index.ts';
import { productOperations } from '../../src/jobs/product.ts';
import { createLogger } from '../../src/logger.ts';
import type { HandledEvent } from '../../src/sandbox/emulator/index.ts';
import { connectRedis } from '../../src/store/redis.ts';
import { originOf, responseTexts, run, unique } from '../jobs/helpers.ts';
import { type Harness, REDIS_URL, startHarness } from '../support/harness.ts';

const COMMENTS = 'POST /v2/posts/{post_id}/comments';
const POST = 'GET /v2/posts/{id}';

function postOf(h: Harness) {
  const org = h.emulator.org();
  const someone = org.authorOf([...org.members.values()].find((m) => !m.is_deactivated)!);
  const support = [...org.channels.values()].find((c) => c.name === 'support')!;
  return org.createPost(someone, { content_markdown: 'a post', channel_id: support.id });
}

/** From the moment a comment is applied, every read of a post is answered 503. */
function failReadsOnceCommented(h: Harness): () => void {
  const onHandled = ({ request, status }: HandledEvent) => {
    if (request.route !== COMMENTS || status >= 300) return;
    h.emulator.faults.add({ route: POST, status: 503, times: Infinity });
    h.emulator.events.off('handled', onHandled);
  };
  h.emulator.events.on('handled', onHandled);
  return () => h.emulator.events.off('handled', onHandled);
}

describe('a comment that lands on its last attempt, its post then unreadable', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  it('is told added, once, never "could not"', async () => {
    const post = postOf(h);
    // Attempts 1-3 (of 4) are refused; the 4th applies the comment; then the post reads 503.
    h.emulator.faults.add({ route: COMMENTS, status: 503, times: 3 });
    const stop = failReadsOnceCommented(h);
    const origin = originOf(h);
    const text = unique('landed last');
    try {
      const { state } = await run(h, 'createComment', { origin, post: { id: post.id }, text });
      expect(state).toBe('completed');
    } finally {
      stop();
    }
    const ours = h.emulator
      .org()
      .commentsOf(post.id)
      .filter((c) => c.content_markdown.includes(text));
    expect(ours).toHaveLength(1);
    const finals = responseTexts(h, origin).filter((t) => !t.startsWith(':hourglass'));
    expect(finals).toHaveLength(1);
    expect(finals[0]).toContain('Comment added to');
  });
});

describe('the worker, when a step fails after a write that landed', () => {
  let h: Harness;
  let worker: Worker;
  // A processor shaped as createComment was: the comment, then a read of the post that fails.
  const landsThenFails: Processors['createComment'] = async (data, ctx) => {
    const postId = 'id' in data.post ? data.post.id : '';
    await ctx.once(
      'comment',
      () => ctx.collab.createComment(postId, { content_markdown: data.text }),
      async () => undefined,
    );
    await ctx.collab.getPost(postId);
  };
  beforeAll(async () => {
    h = await startHarness({ worker: false });
    const logger = createLogger({ level: 'silent' });
    worker = createReliableWorker({
      connection: connectRedis(REDIS_URL, 'worker'),
      logger,
      settings: { prefix: h.prefix, queueName: h.queue.name, concurrency: 2, backoffMs: 50 },
      operations: productOperations({
        workspaces: h.bot.workspaces,
        store: h.bot.store,
        processors: { ...processors, createComment: landsThenFails },
        schedules: h.bot.schedules,
        logger,
      }),
    });
    await worker.waitUntilReady();
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(async () => {
    await worker.close();
    await h.close();
  });

  it('tells the person it went through, not that it could not', async () => {
    const post = postOf(h);
    const origin = originOf(h);
    const text = unique('then failed');
    const stop = failReadsOnceCommented(h);
    try {
      const { state } = await run(h, 'createComment', { origin, post: { id: post.id }, text });
      expect(state).toBe('failed');
    } finally {
      stop();
    }
    const ours = h.emulator
      .org()
      .commentsOf(post.id)
      .filter((c) => c.content_markdown.includes(text));
    expect(ours).toHaveLength(1);
    const finals = responseTexts(h, origin).filter((t) => !t.startsWith(':hourglass'));
    expect(finals).toHaveLength(1);
    expect(finals[0]).not.toMatch(/Could not add the comment/);
    expect(finals[0]).toContain('It went through');
  });
});
