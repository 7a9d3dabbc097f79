import { inspect } from 'node:util';
import { expect } from 'vitest';
import { type CollabError, isCollabError } from '../../src/collab/errors.ts';

/** The CollabError a promise rejects with (fails the test if it resolves or throws anything else). */
export async function failure(promise: Promise<unknown>): Promise<CollabError> {
  try {
    await promise;
  } catch (error) {
    if (isCollabError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** Every way an error may be printed or logged, as one text. */
export function everyRendering(error: unknown): string {
  const parts = [String(error), inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true })];
  try {
    parts.push(JSON.stringify(error));
  } catch {
    // not serialisable: the other renderings still count
  }
  if (error instanceof Error) {
    parts.push(error.message, error.stack ?? '', inspect(error.cause, { depth: Number.POSITIVE_INFINITY }));
  }
  return parts.join('\n');
}

export function expectNoKey(error: unknown, key: string): void {
  expect(everyRendering(error)).not.toContain(key);
}
