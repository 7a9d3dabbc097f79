/**
 * What the person hears when an operation fails. A processor that knows better (an unknown
 * post, a channel that is not linked) throws a UserError with the exact words; everything else
 * is worded from the CollabError kind and reason.
 */
import { type CollabError, isCollabError } from '../collab/errors.ts';
import { describeOperation } from '../render/operationWords.ts';

/** A failure worded for the person, final: retrying cannot help. */
export class UserError extends Error {
  override readonly name = 'UserError';
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}

/** The job must wait for another (jobs/commentLease.ts): run again after `retryAfterMs`, spending no attempt, telling nobody. */
export class WaitTurnError extends Error {
  override name = 'WaitTurnError';
  constructor(readonly retryAfterMs: number) {
    super('another comment on the same post is being sent');
  }
}

export function isWaitTurn(error: unknown): error is WaitTurnError {
  return error instanceof WaitTurnError;
}

/**
 * A failure caused by what the person asked (an unknown post, a bad reference, a refused value):
 * an answer for them, not a fault for the operator, so it is logged without a stack.
 */
export function isPersonsMistake(error: unknown): boolean {
  if (isUserError(error)) return true;
  return (
    isCollabError(error) &&
    error.kind === 'permanent' &&
    (error.reason === 'notFound' || error.reason === 'badRequest')
  );
}

/**
 * Why an operation will be tried again, for the notice that says when (worker.ts): the service
 * only when it was the service.
 */
export function retryCause(error: unknown): string {
  if (!isCollabError(error)) return 'Something went wrong on our side';
  switch (error.reason) {
    case 'network':
    case 'timeout':
    case 'reset':
      return 'The service did not answer';
    case 'invalidResponse':
      return 'The service answered with something unexpected';
    default:
      return 'The service is busy';
  }
}

/** The final failure, in words that say what to do next. */
export function humanError(operation: string, error: unknown): string {
  const what = describeOperation(operation);
  if (isUserError(error)) return error.message;
  if (isCollabError(error)) return collabErrorText(what, error);
  return `Could not ${what}: something went wrong on our side. Try again; if it keeps failing, tell your Slack admin.`;
}

function collabErrorText(what: string, error: CollabError): string {
  const detail = error.detail ? ` The service said: “${error.detail}”.` : '';
  switch (error.reason) {
    case 'unauthorized':
      return `Could not ${what}: the API key was rejected. Ask an admin to reconnect the workspace.`;
    case 'forbidden':
      return `Could not ${what}: the API key is not allowed to do this.${detail} Ask an admin to check the integration's permissions.`;
    case 'notFound':
      return `Could not ${what}: the service has no such item.${detail}`;
    case 'badRequest':
      return `Could not ${what}: the service refused it.${detail} Check the text and try again.`;
    case 'rateLimited':
    case 'server':
    case 'network':
    case 'timeout':
    case 'reset':
      return `Could not ${what}: the service is unavailable right now, and retries did not get through.${detail} Try again in a few minutes.`;
    case 'invalidResponse':
      return `Could not ${what}: the service answered with something unexpected.${detail}`;
  }
}
