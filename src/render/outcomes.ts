/**
 * What a person hears when their operation does not simply succeed: that it will be tried again
 * and when, that it failed and what to do next, that its write went through though what came
 * after did not, that it may have gone through, that the worker stopped. Pure: the operation
 * comes in words (`what`: render/operationWords.ts) and the failure as plain data.
 */
import type { CollabErrorKind, CollabErrorReason } from '../collab/errors.ts';

/** Why an operation failed, as far as its words go. */
export type FailureCause =
  /** the person's input (an unknown post, a channel not linked): these words are the answer */
  | { by: 'person'; words: string }
  /** the collaboration service (collab/errors.ts) */
  | { by: 'service'; kind: CollabErrorKind; reason: CollabErrorReason; detail?: string | undefined }
  /** anything else: a fault on our side */
  | { by: 'us' };

/** Why a job settled outside its run failed, for the person's recent operations. */
export const WORKER_STOPPED = 'the worker stopped while running it';

/** A failure's message: the words, marked as a warning. */
export function warning(words: string): string {
  return `:warning: ${words}`;
}

/** The one notice that an operation will be tried again, and when (`at`, epoch ms). */
export function retryNotice(what: string, at: number, cause: FailureCause): string {
  const seconds = Math.floor(at / 1000);
  const fallback = new Date(at).toISOString().slice(11, 16);
  return `:hourglass_flowing_sand: ${retryCause(cause)}; I will ${what} again at <!date^${seconds}^{time_secs}|${fallback} UTC>. No need to do anything.`;
}

/** Why an operation will be tried again: the service only when it was the service. */
function retryCause(cause: FailureCause): string {
  if (cause.by !== 'service') return 'Something went wrong on our side';
  switch (cause.reason) {
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
export function failedWords(what: string, cause: FailureCause): string {
  if (cause.by === 'person') return cause.words;
  if (cause.by === 'us') {
    return `Could not ${what}: something went wrong on our side. Try again; if it keeps failing, tell your Slack admin.`;
  }
  const detail = cause.detail ? ` The service said: “${cause.detail}”.` : '';
  switch (cause.reason) {
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

/** A write that went through, and a later part of the operation that failed: never "could not". */
export function wentThroughWords(what: string, cause: FailureCause): string {
  return `I did ${what}, but could not finish what comes after it: ${afterwards(cause)} It went through: no need to try again.`;
}

/** Why the rest of an operation whose write landed did not finish, in a sentence. */
function afterwards(cause: FailureCause): string {
  if (cause.by === 'service' && cause.kind !== 'permanent')
    return 'the service did not answer, and retries did not get through.';
  if (cause.by !== 'us') return 'the service refused the next step.';
  return 'something went wrong on our side.';
}

/** A send whose answer never came, and retries that did not get through: it may have gone through. */
export function unconfirmedWords(what: string): string {
  return `Could not ${what} for sure: it was sent, but the service never confirmed it and retries did not get through. It may have gone through: check before trying again.`;
}

/** A job whose worker stopped too often while running it; `partlyDone`: part of it may have gone through. */
export function workerStoppedWords(what: string, partlyDone: boolean): string {
  return partlyDone
    ? `Could not finish: the worker stopped while running it, and it may have gone through (${what}). Check before trying again.`
    : `Could not ${what}: the worker stopped while running it. Try again.`;
}
