/**
 * `function_executed`: Workflow Builder runs one of the app's steps. Bolt acks the event at once;
 * the step goes to the queue keyed by its `function_execution_id`, so a redelivered event runs it
 * once. The worker completes it with the execution's own token (`bot_access_token`).
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { authorisedTeam } from '../authorised.ts';
import type { ListenerDeps } from '../deps.ts';
import { enqueue } from '../shared.ts';

type Args = SlackEventMiddlewareArgs<'function_executed'> & AllMiddlewareArgs;

export function workflowStepListener(deps: ListenerDeps, callbackId: string) {
  return async ({ event, context, fail }: Args): Promise<void> => {
    const teamId = authorisedTeam(context);
    const token = event.bot_access_token ?? context.functionBotAccessToken;
    if (!teamId || !token) {
      deps.logger.warn({ callbackId }, 'function_executed without a team or a token; step not run');
      return;
    }
    const queued = await enqueue(
      deps,
      'runWorkflowStep',
      {
        teamId,
        callbackId,
        executionId: event.function_execution_id,
        token,
        inputs: (event.inputs ?? {}) as Record<string, unknown>,
      },
      `fn:${event.function_execution_id}`,
    );
    if (queued.status === 'unavailable' || queued.status === 'invalid') {
      // Nothing was queued: the workflow hears it now rather than never.
      await fail({
        error:
          queued.status === 'unavailable'
            ? 'The app could not queue this step (its job queue did not answer). Nothing was done; run the workflow again in a minute.'
            : 'The app could not read the inputs of this step. Nothing was done.',
      }).catch((error: unknown) => deps.logger.warn({ err: error }, 'functions.completeError failed'));
    }
  };
}
