/**
 * The worker's failure policy, through the processors, against every fault class of the emulator.
 * The harness keeps JOB_BACKOFF_MS at 50 and JOB_ATTEMPTS at 4, so retries are quick.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCollabClient } from '../../src/collab/client.ts';
import { defaultUsers, makeSlackUser } from '../../src/sandbox/slack/index.ts';
import {
  appPostsWith,
  channelId,
  dmToNewThread,
  originOf,
  RARE_THREAD_POLLS,
  responseTexts,
  run,
  unique,
} from '../jobs/helpers.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const RETRY_TEXT = /The service is busy; I will .* again at/;

describe('failure policy, fault by fault', () => {
  let h: Harness;
  beforeAll(async () => {
    // A short answer timeout, so the stalled-answer case below is quick.
    h = await startHarness({
      env: { COLLAB_TIMEOUT_MS: '400', ...RARE_THREAD_POLLS },
      slackUsers: [
        ...defaultUsers(),
        makeSlackUser({ id: 'U_ALAN', name: 'alan', real_name: 'Alan Turing', email: 'alan@example.com' }),
      ],
    });
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  const createPost = (text: string, origin = originOf(h)) =>
    run(h, 'createPost', { origin, channel: { name: 'engineering' }, content: text });

  /** How many create-post requests carrying `text` reached the service. */
  const postCreatesSent = (text: string) =>
    h.emulator.received.filter((r) => r.route === 'POST /v2/posts' && JSON.stringify(r.body).includes(text))
      .length;

  it('5xx then success: retried, the person told once that it will retry, then the outcome', async () => {
    h.emulator.faults.add({ route: 'POST /v2/posts', status: 503, times: 2 });
    const origin = originOf(h);
    const text = unique('after two 503s');
    const { state, job } = await createPost(text, origin);
    expect(state).toBe('completed');
    expect(appPostsWith(h, text)).toHaveLength(1);
    expect(job.attemptsMade).toBe(3);
    const told = responseTexts(h, origin);
    expect(told).toHaveLength(2);
    expect(told[0]).toMatch(RETRY_TEXT);
    expect(told[0]).toContain('create the post');
    expect(told[1]).toContain('Posted to #engineering');
  });

  it('5xx on every attempt: the person hears the final failure after the retries', async () => {
    h.emulator.faults.add({ route: 'POST /v2/posts', status: 500, times: Infinity });
    const origin = originOf(h);
    const text = unique('never');
    const { state, job } = await createPost(text, origin);
    expect(state).toBe('failed');
    expect(job.attemptsMade).toBe(4);
    expect(appPostsWith(h, text)).toHaveLength(0);
    const told = responseTexts(h, origin);
    expect(told).toHaveLength(2);
    expect(told[0]).toMatch(RETRY_TEXT);
    expect(told[1]).toMatch(/^:warning: Could not create the post: the service is unavailable right now/);
  });

  it('429 with Retry-After: the job waits that long, delayed, without spending an attempt', async () => {
    h.emulator.faults.add({ route: 'POST /v2/posts', status: 429, retryAfter: '3600' });
    const origin = originOf(h);
    const text = unique('after a 429 with Retry-After');
    const idempotencyKey = unique('retry-after');
    // The job's id is known once enqueued; its `delayed` event may come before that.
    const delays = new Map<string, number>();
    let seen = () => {};
    const onDelayed = ({ jobId: id, delay }: { jobId: string; delay: number }) => {
      delays.set(id, Number(delay));
      seen();
    };
    h.queueEvents.on('delayed', onDelayed);
    const { jobId } = await h.bot.queue.enqueue(
      'createPost',
      { origin, channel: { name: 'engineering' }, content: text },
      { idempotencyKey },
    );
    const delayedEvent = new Promise<number>((resolve) => {
      seen = () => {
        const delay = delays.get(jobId);
        if (delay === undefined) return;
        h.queueEvents.off('delayed', onDelayed);
        resolve(delay);
      };
      seen();
    });
    // Due in about an hour, as Retry-After said (not the 50 ms backoff), and no attempt spent.
    expect(await delayedEvent).toBeGreaterThan(Date.now() + 3000_000);
    expect(String((await h.slackCall((c) => c.path === `/response/${origin.responseId}`)).args.text)).toMatch(
      RETRY_TEXT,
    );
    const delayed = (await h.bot.queue.queue.getJob(jobId))!;
    expect(await delayed.getState()).toBe('delayed');
    expect(delayed.attemptsMade).toBe(0);
    const settled = h.settled(jobId);
    await delayed.promote();
    expect(await settled).toBe('completed');
    expect((await h.bot.queue.queue.getJob(jobId))!.attemptsMade).toBe(1);
    expect(appPostsWith(h, text)).toHaveLength(1);
    expect(responseTexts(h, origin)).toHaveLength(2);
  });

  it('429 without Retry-After: backs off, no attempt spent, told once', async () => {
    h.emulator.faults.add({ route: 'GET /v2/channels', status: 429, times: 3 });
    const origin = originOf(h);
    const { state, job } = await run(h, 'listChannels', { origin });
    expect(state).toBe('completed');
    expect(job.attemptsMade).toBe(1);
    const told = responseTexts(h, origin);
    expect(told.filter((t) => RETRY_TEXT.test(t))).toHaveLength(1);
    expect(told).toHaveLength(2);
  });

  it('401: final at once, "API key was rejected"', async () => {
    h.emulator.faults.add({ route: 'POST /v2/posts', status: 401 });
    const origin = originOf(h);
    const { state, job } = await createPost(unique('unauthorized'), origin);
    expect(state).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    expect(responseTexts(h, origin)).toEqual([
      ':warning: Could not create the post: the API key was rejected. Ask an admin to reconnect the workspace.',
    ]);
  });

  it('404: the person hears which post does not exist, and where to find one', async () => {
    const origin = originOf(h);
    const { state, job } = await run(h, 'resolvePost', { origin, post: { id: 'pst_<nope>' } });
    expect(state).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    expect(responseTexts(h, origin)).toEqual([
      ":warning: No post with id `pst_&lt;nope&gt;`. Check the id on the post's card, or list posts with `/collab posts`.",
    ]);
  });

  it('a plain-text error body is shown as the service said it', async () => {
    h.emulator.faults.add({ route: 'POST /v2/posts', status: 400, body: 'title too long for this channel' });
    const origin = originOf(h);
    const { state } = await createPost(unique('plain text error'), origin);
    expect(state).toBe('failed');
    expect(responseTexts(h, origin)).toEqual([
      ':warning: Could not create the post: the service refused it. The service said: “title too long for this channel”. Check the text and try again.',
    ]);
  });

  it('malformed JSON answering a create: ambiguous, recovered, exactly one post', async () => {
    h.emulator.faults.add({ route: 'POST /v2/posts', malformedJson: true });
    const origin = originOf(h);
    const text = unique('garbled answer');
    const { state } = await createPost(text, origin);
    expect(state).toBe('completed');
    expect(appPostsWith(h, text)).toHaveLength(1);
    expect(postCreatesSent(text)).toBe(1);
    expect(responseTexts(h, origin).at(-1)).toContain('Posted to #engineering');
  });

  it('createPost: connection dropped after the write was applied → recovered, exactly one post', async () => {
    h.emulator.faults.add({ route: 'POST /v2/posts', drop: 'afterApply' });
    const text = unique('dropped after apply');
    const { state } = await createPost(text);
    expect(state).toBe('completed');
    expect(appPostsWith(h, text)).toHaveLength(1);
    // The recover found it: the create was sent once.
    expect(postCreatesSent(text)).toBe(1);
    // And its card was posted once.
    const post = appPostsWith(h, text)[0]!;
    expect(await h.bot.store.cards.cardsOfPost('T_LOCAL', post.id)).toHaveLength(1);
  });

  it('createPost: the answer stalls past the timeout after the write → recovered, exactly one post', async () => {
    h.emulator.faults.add({ route: 'POST /v2/posts', stallMs: 3000 });
    const text = unique('stalled answer');
    const { state } = await createPost(text);
    expect(state).toBe('completed');
    expect(appPostsWith(h, text)).toHaveLength(1);
    expect(postCreatesSent(text)).toBe(1);
  });

  it('createPost: connection dropped before the write → sent again, exactly one post', async () => {
    h.emulator.faults.add({ route: 'POST /v2/posts', drop: 'beforeApply' });
    const origin = originOf(h);
    const text = unique('dropped before apply');
    const { state } = await createPost(text, origin);
    expect(state).toBe('completed');
    expect(appPostsWith(h, text)).toHaveLength(1);
    expect(postCreatesSent(text)).toBe(2);
    // The retry notice says what happened: no answer, not a busy service.
    expect(responseTexts(h, origin)[0]).toMatch(
      /^:hourglass_flowing_sand: The service did not answer; I will create the post again at/,
    );
  });

  it('createComment: connection dropped after apply → exactly one comment', async () => {
    const postId = [...h.emulator.org().posts.values()].find((p) => p.title === 'Icon set v3')!.id;
    const before = h.emulator.org().commentsOf(postId).length;
    h.emulator.faults.add({ route: 'POST /v2/posts/{post_id}/comments', drop: 'afterApply' });
    const text = unique('a comment');
    const { state } = await run(h, 'createComment', { origin: originOf(h), post: { id: postId }, text });
    expect(state).toBe('completed');
    const comments = h.emulator.org().commentsOf(postId);
    expect(comments).toHaveLength(before + 1);
    expect(comments.filter((c) => c.content_markdown.includes(text))).toHaveLength(1);
  });

  it('createComment: connection dropped before apply → sent again, exactly one comment', async () => {
    const postId = [...h.emulator.org().posts.values()].find((p) => p.title === 'Juggling club')!.id;
    h.emulator.faults.add({ route: 'POST /v2/posts/{post_id}/comments', drop: 'beforeApply' });
    const text = unique('another comment');
    const { state } = await run(h, 'createComment', { origin: originOf(h), post: { id: postId }, text });
    expect(state).toBe('completed');
    expect(
      h.emulator
        .org()
        .commentsOf(postId)
        .filter((c) => c.content_markdown.includes(text)),
    ).toHaveLength(1);
  });

  it('createMessage: connection dropped after apply → exactly one message', async () => {
    const threadId = [...h.emulator.org().threads.values()][0]!.id;
    h.emulator.faults.add({ route: 'POST /v2/threads/{thread_id}/messages', drop: 'afterApply' });
    const text = unique('a message');
    const { state } = await run(h, 'sendDm', { origin: originOf(h), threadId, text });
    expect(state).toBe('completed');
    const messages = [...h.emulator.org().messages.values()].filter((m) => m.content_markdown.includes(text));
    expect(messages).toHaveLength(1);
  });

  it('createMessage: connection dropped before apply → sent again, exactly one message', async () => {
    const threadId = [...h.emulator.org().threads.values()][0]!.id;
    h.emulator.faults.add({ route: 'POST /v2/threads/{thread_id}/messages', drop: 'beforeApply' });
    const text = unique('another message');
    const { state } = await run(h, 'sendDm', { origin: originOf(h), threadId, text });
    expect(state).toBe('completed');
    expect(
      [...h.emulator.org().messages.values()].filter((m) => m.content_markdown.includes(text)),
    ).toHaveLength(1);
  });

  describe('a remembered thread gone from the service, then a fault on the way to the new one', () => {
    const messagesWith = (text: string) =>
      [...h.emulator.org().messages.values()].filter((m) => m.content_markdown.includes(text));

    /** A thread made for Ada and these people, then deleted in the service. */
    async function goneThread(slackUserIds: string[]): Promise<string> {
      const threadId = await dmToNewThread(h, slackUserIds, unique('soon gone'));
      h.emulator.org().threads.delete(threadId);
      return threadId;
    }

    it("the new thread's answer lost: the re-run sends the message once, and says where", async () => {
      const gone = await goneThread(['U_GRACE']);
      h.emulator.faults.add({ route: 'POST /v2/threads', drop: 'afterApply' });
      const origin = originOf(h);
      const text = unique('to a new thread');
      const { state, job } = await run(h, 'sendDm', { origin, slackUserIds: ['U_GRACE'], text });
      expect(state).toBe('completed');
      expect(job.attemptsMade).toBeGreaterThan(1);
      const sent = messagesWith(text);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.thread_id).not.toBe(gone);
      const told = responseTexts(h, origin);
      expect(told.at(-1)).toBe(
        `:white_check_mark: Sent to Grace Hopper in thread \`${sent[0]!.thread_id}\`.`,
      );
      expect(told.filter((t) => t.includes('Sent to'))).toHaveLength(1);
    });

    it("the message's answer lost in the new thread: found there again, not sent twice", async () => {
      const gone = await goneThread(['U_ALAN']);
      // Armed when the new thread is made: the 404 of the gone thread is answered as it is.
      const arm = (request: { route: string }) => {
        if (request.route !== 'POST /v2/threads') return;
        h.emulator.faults.add({ route: 'POST /v2/threads/{thread_id}/messages', drop: 'afterApply' });
        h.emulator.events.off('request', arm);
      };
      h.emulator.events.on('request', arm);
      const origin = originOf(h);
      const text = unique('once in the new thread');
      const { state, job } = await run(h, 'sendDm', { origin, slackUserIds: ['U_ALAN'], text });
      h.emulator.events.off('request', arm);
      expect(state).toBe('completed');
      expect(job.attemptsMade).toBeGreaterThan(1);
      const sent = messagesWith(text);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.thread_id).not.toBe(gone);
      expect(responseTexts(h, origin).filter((t) => t.includes('Sent to'))).toHaveLength(1);
    });
  });

  describe('a re-run after a crash (the step log says the create started)', () => {
    const key = () => `crash-${Math.random().toString(36).slice(2)}`;

    /** Enqueues while the queue is paused, writes the step log a crashed run leaves, resumes. */
    async function rerun(text: string, landed: boolean) {
      const origin = originOf(h);
      const idempotencyKey = key();
      const queue = h.bot.queue.queue;
      await queue.pause();
      const { jobId } = await h.bot.queue.enqueue(
        'createPost',
        { origin, channel: { name: 'engineering' }, content: text },
        { idempotencyKey },
      );
      expect(jobId).toBe(await h.bot.queue.jobIdOf(origin.teamId, idempotencyKey));
      const job = await queue.getJob(jobId);
      await job!.updateProgress({
        steps: {
          'create:since': { started: true, done: true, value: Date.now() },
          create: { started: true },
        },
      });
      if (landed) {
        // What the crashed run had sent: the same create, with the bot's key.
        const collab = createCollabClient({ baseUrl: h.emulator.url, apiKey: h.emulator.apiKey });
        await collab.createPost({
          content_markdown: `${text}\n\n_Posted from Slack by Ada Lovelace_`,
          channel_id: channelId(h, 'engineering'),
        });
        await collab.close();
      }
      const sentBefore = h.emulator.received.filter((r) => r.route === 'POST /v2/posts').length;
      const settled = h.settled(jobId);
      await queue.resume();
      expect(await settled).toBe('completed');
      return h.emulator.received.filter((r) => r.route === 'POST /v2/posts').length - sentBefore;
    }

    it('the create had landed: found again, not sent twice', async () => {
      const text = unique('crashed after sending');
      expect(await rerun(text, true)).toBe(0);
      expect(appPostsWith(h, text)).toHaveLength(1);
    });

    it('the create had not landed: sent, once', async () => {
      const text = unique('crashed before sending');
      expect(await rerun(text, false)).toBe(1);
      expect(appPostsWith(h, text)).toHaveLength(1);
    });
  });
});
