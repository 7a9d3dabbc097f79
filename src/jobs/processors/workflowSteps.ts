/**
 * Workflow Builder steps: runWorkflowStep does the step's work once (the step log) and completes
 * the step with the execution's own token — `functions.completeSuccess` with its outputs, or
 * `functions.completeError` with a sentence a person can act on. A passing failure is retried
 * first; the last attempt, or a failure no retry can mend, completes with the error: the workflow
 * always hears the outcome. "Wait until a post is resolved" completes later: a scheduler checks
 * the post every FEED_POLL_INTERVAL_MS (one request a check) for at most WAIT_MAX_MS.
 */

import { isCollabError } from '../../collab/errors.ts';
import { isResolved, type Post } from '../../collab/schemas.ts';
import { causeOf, isUserError, UserError } from '../../engine/index.ts';
import { isStepId, type StepId, WAIT_MAX_MS } from '../../operations/workflowSteps.ts';
import { describeOperation } from '../../render/operationWords.ts';
import { failedWords } from '../../render/outcomes.ts';
import { slackErrorCode } from '../../slackapi/errors.ts';
import type { Processor, ProcessorContext } from '../context.ts';
import { memberName, recipientsOf } from '../people.ts';
import { noPost, orNotFound, resolveChannel } from '../resolveRefs.ts';
import { schedulerId } from '../schedules.ts';

type Inputs = Record<string, unknown>;
type Outputs = Record<string, string>;

/** A step's answer: its outputs now, or a wait that completes it later. */
type StepResult = { outputs: Outputs } | { waiting: true };

const waitSchedulerId = (teamId: string, executionId: string) => schedulerId(teamId, 'wait', executionId);

function textInput(inputs: Inputs, name: string, what: string): string {
  const value = inputs[name];
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  throw new UserError(`The step needs ${what}, and it was empty.`);
}

function optionalText(inputs: Inputs, name: string): string | undefined {
  const value = inputs[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

const postOf = (ctx: ProcessorContext, postId: string) =>
  orNotFound(
    () => ctx.collab.getPost(postId),
    () => noPost(postId),
  );

const resolvedOutputs = (post: Post): Outputs => ({
  ...(post.resolution?.resolved_at ? { resolved_at: post.resolution.resolved_at } : {}),
  ...(post.resolution?.resolved_by?.name ? { resolved_by: post.resolution.resolved_by.name } : {}),
});

const STEPS: Record<
  StepId,
  (ctx: ProcessorContext, inputs: Inputs, data: { executionId: string; token: string }) => Promise<StepResult>
> = {
  async create_post(ctx, inputs) {
    const channel = await resolveChannel(ctx, { name: textInput(inputs, 'channel', 'a channel') });
    const title = optionalText(inputs, 'title');
    const content = textInput(inputs, 'content', 'the post’s content');
    const post = await ctx.once('create', () =>
      ctx.collab.createPost({
        channel_id: channel.id,
        content_markdown: content,
        ...(title ? { title } : {}),
      }),
    );
    await ctx.store.urls.remember(ctx.teamId, post.url, post.id);
    return { outputs: { post_id: post.id, ...(post.url ? { url: post.url } : {}) } };
  },

  async resolve_post(ctx, inputs) {
    const postId = textInput(inputs, 'post', 'a post');
    const message = optionalText(inputs, 'message');
    const post = await ctx.once('resolve', () =>
      orNotFound(
        () => ctx.collab.resolvePost(postId, message ? { content_markdown: message } : {}),
        () => noPost(postId),
      ),
    );
    return { outputs: resolvedOutputs(post) };
  },

  async comment_on_post(ctx, inputs) {
    const postId = textInput(inputs, 'post', 'a post');
    const text = textInput(inputs, 'text', 'the comment’s text');
    const parent = optionalText(inputs, 'parent');
    const comment = await ctx.once('comment', () =>
      orNotFound(
        () =>
          ctx.collab.createComment(postId, {
            content_markdown: text,
            ...(parent ? { parent_id: parent } : {}),
          }),
        () => noPost(postId),
      ),
    );
    return { outputs: { comment_id: comment.id } };
  },

  async message_members(ctx, inputs) {
    const users = Array.isArray(inputs.users)
      ? inputs.users.filter((u): u is string => typeof u === 'string')
      : [];
    if (users.length === 0) throw new UserError('The step needs at least one person to message.');
    const text = textInput(inputs, 'text', 'a message');
    const members = await recipientsOf(ctx, users);
    const ids = [...new Set(members.map((m) => m.id))];
    const thread = await ctx.once('thread', () =>
      ctx.collab.createThread({
        member_ids: ids,
        title: `${members.map(memberName).join(', ')} (from a Slack workflow)`,
      }),
    );
    await ctx.once('message', () => ctx.collab.createMessage(thread.id, { content_markdown: text }));
    return { outputs: { thread_id: thread.id } };
  },

  async wait_until_resolved(ctx, inputs, data) {
    const postId = textInput(inputs, 'post', 'a post');
    const post = await postOf(ctx, postId);
    if (isResolved(post)) return { outputs: resolvedOutputs(post) };
    await ctx.store.workflowWaits.set(ctx.teamId, data.executionId, {
      postId,
      token: data.token,
      deadline: Date.now() + WAIT_MAX_MS,
    });
    await ctx.schedules.upsert(
      waitSchedulerId(ctx.teamId, data.executionId),
      { everyMs: ctx.polling.feedIntervalMs },
      'checkWorkflowWait',
      { teamId: ctx.teamId, executionId: data.executionId },
    );
    return { waiting: true };
  },
};

/** Completes the step once, with the execution's token. */
async function complete(
  ctx: ProcessorContext,
  executionId: string,
  token: string,
  result: { outputs: Outputs } | { error: string },
): Promise<void> {
  await ctx.once('complete', async () => {
    try {
      if ('outputs' in result) {
        await ctx.slack.functions.completeSuccess({
          token,
          function_execution_id: executionId,
          outputs: result.outputs,
        });
      } else {
        await ctx.slack.functions.completeError({
          token,
          function_execution_id: executionId,
          error: result.error,
        });
      }
    } catch (error) {
      // The execution ended on Slack's side (timed out, cancelled): nobody is left to tell.
      ctx.logger.warn({ err: slackErrorCode(error), executionId }, 'workflow step not completed');
    }
    return true;
  });
}

/** Whether this failure is the last word: no retry can mend it, or no attempt is left. */
function isFinal(ctx: ProcessorContext, error: unknown): boolean {
  if (isUserError(error) || (isCollabError(error) && error.kind === 'permanent')) return true;
  return ctx.job.attemptsMade + 1 >= (ctx.job.opts.attempts ?? 1);
}

/** A failure in words for Workflow Builder (plain text: it shows no Slack markup). */
function plainWords(operation: string, error: unknown): string {
  return failedWords(describeOperation(operation), causeOf(error))
    .replace(/`/g, '')
    .replace(/<@([^>|]+)[^>]*>/g, '$1');
}

export const runWorkflowStep: Processor<'runWorkflowStep'> = async (data, ctx) => {
  const { executionId, token, callbackId } = data;
  if (!isStepId(callbackId)) {
    await complete(ctx, executionId, token, { error: `This app has no workflow step “${callbackId}”.` });
    return;
  }
  let result: StepResult;
  try {
    result = await STEPS[callbackId](ctx, data.inputs, { executionId, token });
  } catch (error) {
    if (!isFinal(ctx, error)) throw error;
    await complete(ctx, executionId, token, { error: plainWords('runWorkflowStep', error) });
    return;
  }
  if ('outputs' in result) await complete(ctx, executionId, token, result);
};

export const checkWorkflowWait: Processor<'checkWorkflowWait'> = async (data, ctx) => {
  const { executionId } = data;
  const wait = await ctx.store.workflowWaits.get(ctx.teamId, executionId);
  const stop = async () => {
    await ctx.schedules.remove(waitSchedulerId(ctx.teamId, executionId));
    await ctx.store.workflowWaits.remove(ctx.teamId, executionId);
  };
  if (!wait) {
    await ctx.schedules.remove(waitSchedulerId(ctx.teamId, executionId));
    return;
  }
  let post: Post;
  try {
    post = await postOf(ctx, wait.postId);
  } catch (error) {
    if (!isUserError(error)) throw error;
    await complete(ctx, executionId, wait.token, { error: plainWords('checkWorkflowWait', error) });
    await stop();
    return;
  }
  if (isResolved(post)) {
    await complete(ctx, executionId, wait.token, { outputs: resolvedOutputs(post) });
    await stop();
    return;
  }
  if (Date.now() >= wait.deadline) {
    await complete(ctx, executionId, wait.token, {
      error: `Post ${wait.postId} was not resolved within ${Math.round(WAIT_MAX_MS / 86_400_000)} days, the longest this step waits.`,
    });
    await stop();
  }
};
