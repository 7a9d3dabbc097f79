/**
 * Workflow Builder custom steps through signed `function_executed` events into the real bot and
 * worker: each step does its work once and completes with `functions.completeSuccess` (or
 * `completeError`, in words) using the execution's own token; a redelivered event runs once;
 * "Wait until a post is resolved" completes when polling sees the resolution, or fails past its
 * longest wait.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerId } from '../../../../src/jobs/schedules.ts';
import { WORKFLOW_STEPS } from '../../../../src/operations/workflowSteps.ts';
import { functionExecuted, type RecordedCall } from '../../../../src/sandbox/slack/index.ts';
import { callsOf, channelId, memberId, run, unique } from '../../../jobs/helpers.ts';
import { type Harness, startHarness, TEAM } from '../../../support/harness.ts';

type StepId = keyof typeof WORKFLOW_STEPS;

describe('Workflow Builder steps', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { FEED_POLL_INTERVAL_MS: '3600000' } });
  });
  afterAll(() => h.close());

  const grace = () => h.emulator.org().actAs(memberId(h, 'grace@example.com'));
  const completions = (executionId: string): RecordedCall[] =>
    h.slack.calls.filter(
      (c) => c.method.startsWith('functions.complete') && c.args.function_execution_id === executionId,
    );

  /** Sends `function_executed` for a step, signed; answers once the step's job settled. */
  async function execute(step: StepId, inputs: Record<string, unknown>, executionId?: string) {
    const event = functionExecuted({
      callbackId: step,
      title: WORKFLOW_STEPS[step].title,
      inputs,
      ...(executionId ? { executionId } : {}),
    });
    const eventId = `Ev${event.function_execution_id}`;
    const res = await h.event(event as unknown as Record<string, unknown>, { eventId });
    expect(res.status).toBe(200);
    const state = await h.settled(await h.queuedAs(`fn:${event.function_execution_id}`));
    expect(state).toBe('completed');
    return { event, eventId };
  }

  async function completion(executionId: string) {
    return h.slackCall(
      (c) => c.method.startsWith('functions.complete') && c.args.function_execution_id === executionId,
    );
  }

  it('Create a post: one post, completed with its id and link, with the execution’s token; a redelivery runs nothing again', async () => {
    const title = unique('From a workflow');
    const { event, eventId } = await execute('create_post', {
      channel: '#engineering',
      title,
      content: 'Made by a workflow step',
    });
    const done = await completion(event.function_execution_id);
    expect(done.method).toBe('functions.completeSuccess');
    expect(done.token).toBe(event.bot_access_token);
    const posts = [...h.emulator.org().posts.values()].filter((p) => p.title === title);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.channel_id).toBe(channelId(h, 'engineering'));
    expect(done.args.outputs).toEqual({ post_id: posts[0]!.id, url: expect.any(String) });

    // Slack redelivers (same event, a retry), and again under another event id: still one step.
    expect(
      (await h.event(event as unknown as Record<string, unknown>, { eventId, retryNum: 1 })).status,
    ).toBe(200);
    expect(
      (await h.event(event as unknown as Record<string, unknown>, { eventId: `${eventId}B` })).status,
    ).toBe(200);
    const jobs = await h.bot.queue.queue.getJobs(['completed', 'waiting', 'active', 'delayed']);
    expect(jobs.filter((j) => j.data?.executionId === event.function_execution_id)).toHaveLength(1);
    expect([...h.emulator.org().posts.values()].filter((p) => p.title === title)).toHaveLength(1);
    expect(completions(event.function_execution_id)).toHaveLength(1);
  });

  it('Resolve a post and Comment on a post complete with what the service answered', async () => {
    const post = grace().createPost({
      channel_id: channelId(h, 'engineering'),
      title: unique('To resolve'),
      content_markdown: 'x',
    });
    const comment = await execute('comment_on_post', { post: post.id, text: 'Looked at it' });
    const commented = await completion(comment.event.function_execution_id);
    expect(commented.method).toBe('functions.completeSuccess');
    const made = [...h.emulator.org().comments.values()].filter((c) => c.post_id === post.id);
    expect(made).toHaveLength(1);
    expect(commented.args.outputs).toEqual({ comment_id: made[0]!.id });

    const reply = await execute('comment_on_post', { post: post.id, text: 'Agreed', parent: made[0]!.id });
    const replied = await completion(reply.event.function_execution_id);
    expect(replied.method).toBe('functions.completeSuccess');

    const resolve = await execute('resolve_post', { post: post.id, message: 'Done by the workflow' });
    const resolved = await completion(resolve.event.function_execution_id);
    expect(resolved.method).toBe('functions.completeSuccess');
    expect((resolved.args.outputs as Record<string, string>).resolved_at).toEqual(expect.any(String));
  });

  it('Message members: Slack users found by email, one thread, its id', async () => {
    const { event } = await execute('message_members', { users: ['U_GRACE'], text: 'Hello from a workflow' });
    const done = await completion(event.function_execution_id);
    expect(done.method).toBe('functions.completeSuccess');
    const threadId = (done.args.outputs as Record<string, string>).thread_id!;
    const thread = h.emulator.org().threads.get(threadId);
    expect(thread).toBeDefined();
    const messages = [...h.emulator.org().messages.values()].filter((m) => m.thread_id === threadId);
    expect(messages.map((m) => m.content_markdown)).toEqual(['Hello from a workflow']);
  });

  it('an unknown post completes with an error a person can read', async () => {
    const { event } = await execute('resolve_post', { post: 'pst_nope' });
    const done = await completion(event.function_execution_id);
    expect(done.method).toBe('functions.completeError');
    expect(done.args.error).toBe('No post with id pst_nope.');
  });

  it('Wait until a post is resolved: completes when a poll sees the resolution, with who and when', async () => {
    const post = grace().createPost({
      channel_id: channelId(h, 'engineering'),
      title: unique('Awaited'),
      content_markdown: 'x',
    });
    const firstTick = h.nextSettled('checkWorkflowWait');
    const { event } = await execute('wait_until_resolved', { post: post.id });
    const executionId = event.function_execution_id;
    expect(await h.bot.schedules.get(schedulerId(TEAM, 'wait', executionId))).toMatchObject({
      every: 3600000,
    });
    expect((await firstTick).state).toBe('completed');
    expect(completions(executionId)).toHaveLength(0);

    grace().resolvePost(post.id);
    expect((await run(h, 'checkWorkflowWait', { teamId: TEAM, executionId })).state).toBe('completed');
    const done = await completion(executionId);
    expect(done.method).toBe('functions.completeSuccess');
    expect(done.token).toBe(event.bot_access_token);
    expect(done.args.outputs).toEqual({ resolved_at: expect.any(String), resolved_by: expect.any(String) });
    expect(await h.bot.schedules.get(schedulerId(TEAM, 'wait', executionId))).toBeUndefined();

    // Another tick (queued before the end) completes nothing again.
    expect((await run(h, 'checkWorkflowWait', { teamId: TEAM, executionId })).state).toBe('completed');
    expect(completions(executionId)).toHaveLength(1);
  });

  it('Wait until a post is resolved: past the longest wait, it fails saying so', async () => {
    const post = grace().createPost({
      channel_id: channelId(h, 'engineering'),
      title: unique('Never'),
      content_markdown: 'x',
    });
    const firstTick = h.nextSettled('checkWorkflowWait');
    const { event } = await execute('wait_until_resolved', { post: post.id });
    const executionId = event.function_execution_id;
    await firstTick;
    const wait = await h.bot.store.workflowWaits.get(TEAM, executionId);
    await h.bot.store.workflowWaits.set(TEAM, executionId, { ...wait!, deadline: Date.now() - 1 });
    expect((await run(h, 'checkWorkflowWait', { teamId: TEAM, executionId })).state).toBe('completed');
    const done = await completion(executionId);
    expect(done.method).toBe('functions.completeError');
    expect(done.args.error).toBe(
      `Post ${post.id} was not resolved within 7 days, the longest this step waits.`,
    );
    expect(await h.bot.schedules.get(schedulerId(TEAM, 'wait', executionId))).toBeUndefined();
  });

  it('records completions on the stand-in (what the console shows)', () => {
    expect(callsOf(h, 'functions.completeSuccess').length).toBeGreaterThan(0);
    expect(callsOf(h, 'functions.completeError').length).toBeGreaterThan(0);
  });
});
