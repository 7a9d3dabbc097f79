/**
 * Failures a processor throws on purpose, and what a failure is in the words of its outcome. A
 * processor that knows better (an unknown post, a channel that is not linked) throws a UserError
 * with the exact words; everything else is worded from the CollabError kind and reason.
 */
import { isCollabError } from '../collab/errors.ts';
import type { FailureCause } from '../render/outcomes.ts';

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

/** A failure as the outcome texts word it (render/outcomes.ts). */
export function causeOf(error: unknown): FailureCause {
  if (isUserError(error)) return { by: 'person', words: error.message };
  if (isCollabError(error)) {
    return { by: 'service', kind: error.kind, reason: error.reason, detail: error.detail };
  }
  return { by: 'us' };
}
