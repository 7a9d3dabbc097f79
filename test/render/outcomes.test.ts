import { describe, expect, it } from 'vitest';
import {
  type FailureCause,
  failedWords,
  retryNotice,
  unconfirmedWords,
  WORKER_STOPPED,
  warning,
  wentThroughWords,
  workerStoppedWords,
} from '../../src/render/outcomes.ts';

const service = (
  reason: Extract<FailureCause, { by: 'service' }>['reason'],
  kind: Extract<FailureCause, { by: 'service' }>['kind'] = 'retryable',
  detail?: string,
): FailureCause => ({ by: 'service', kind, reason, ...(detail ? { detail } : {}) });

describe('outcome texts', () => {
  it('tells once when an operation will be tried again, with a Slack date and a UTC fallback', () => {
    const at = Date.parse('2026-05-04T09:07:30Z');
    expect(retryNotice('add the comment', at, service('server'))).toBe(
      `:hourglass_flowing_sand: The service is busy; I will add the comment again at <!date^${at / 1000}^{time_secs}|09:07 UTC>. No need to do anything.`,
    );
    expect(retryNotice('add the comment', at, service('timeout', 'ambiguous'))).toMatch(
      /^:hourglass_flowing_sand: The service did not answer; /,
    );
    expect(retryNotice('add the comment', at, service('invalidResponse'))).toMatch(
      /^:hourglass_flowing_sand: The service answered with something unexpected; /,
    );
    expect(retryNotice('add the comment', at, { by: 'us' })).toMatch(
      /^:hourglass_flowing_sand: Something went wrong on our side; /,
    );
  });

  it("words a final failure by its cause: the person's own words, the service's reason, or ours", () => {
    expect(failedWords('resolve the post', { by: 'person', words: 'No post 42.' })).toBe('No post 42.');
    expect(failedWords('resolve the post', service('unauthorized', 'permanent'))).toBe(
      'Could not resolve the post: the API key was rejected. Ask an admin to reconnect the workspace.',
    );
    expect(failedWords('resolve the post', service('badRequest', 'permanent', 'title is empty'))).toBe(
      'Could not resolve the post: the service refused it. The service said: “title is empty”. Check the text and try again.',
    );
    expect(failedWords('resolve the post', service('server'))).toBe(
      'Could not resolve the post: the service is unavailable right now, and retries did not get through. Try again in a few minutes.',
    );
    expect(failedWords('resolve the post', { by: 'us' })).toBe(
      'Could not resolve the post: something went wrong on our side. Try again; if it keeps failing, tell your Slack admin.',
    );
  });

  it('never says "could not" of a write that went through', () => {
    expect(wentThroughWords('add the comment', service('timeout', 'ambiguous'))).toBe(
      'I did add the comment, but could not finish what comes after it: the service did not answer, and retries did not get through. It went through: no need to try again.',
    );
    expect(wentThroughWords('add the comment', service('notFound', 'permanent'))).toContain(
      'the service refused the next step.',
    );
    expect(wentThroughWords('add the comment', { by: 'us' })).toContain('something went wrong on our side.');
    expect(unconfirmedWords('create the post')).toBe(
      'Could not create the post for sure: it was sent, but the service never confirmed it and retries did not get through. It may have gone through: check before trying again.',
    );
  });

  it('says the worker stopped, and whether part of it may have gone through', () => {
    expect(warning(workerStoppedWords('create the post', false))).toBe(
      ':warning: Could not create the post: the worker stopped while running it. Try again.',
    );
    expect(workerStoppedWords('create the post', true)).toBe(
      'Could not finish: the worker stopped while running it, and it may have gone through (create the post). Check before trying again.',
    );
    expect(workerStoppedWords('create the post', true)).toContain(WORKER_STOPPED);
  });
});
