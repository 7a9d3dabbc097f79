/**
 * The engine's errors, decided in one place. A processor throws a UserError (final: the person
 * hears its words) or a WaitTurnError (run again later, no attempt spent, nobody told); the
 * engine throws a LockLostError (this run lost its job to another run) and an UnsettledError
 * (whether a write landed cannot be told). The service's failures are CollabErrors
 * (collab/errors.ts); Slack's are decided in slackapi/errors.ts.
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

/** The job must wait for another (jobLease.ts): run again after `retryAfterMs`, spending no attempt, telling nobody. */
export class WaitTurnError extends Error {
  override name = 'WaitTurnError';
  constructor(
    readonly retryAfterMs: number,
    message = 'another job holds what this one needs',
  ) {
    super(message);
  }
}

export function isWaitTurn(error: unknown): error is WaitTurnError {
  return error instanceof WaitTurnError;
}

/** This run no longer holds the job's lock: another run has (or will have) the job. */
export class LockLostError extends Error {
  override name = 'LockLostError';
  constructor(jobId: string | undefined) {
    super(`lost the lock of job ${jobId ?? '?'}: another run owns it now`);
  }
}

export function isLockLost(error: unknown): error is LockLostError {
  return error instanceof LockLostError;
}

/**
 * Whether a create landed cannot be told (landed.ts): never a "not found", since a resend would
 * risk a duplicate. The step stays in doubt.
 */
export class UnsettledError extends Error {
  override name = 'UnsettledError';
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
