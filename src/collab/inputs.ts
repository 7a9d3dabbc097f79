/**
 * What the client checks before it sends anything: request bodies, list options and path
 * parameters. A bad value refuses the call with a CollabError of kind `permanent`, reason
 * `badRequest`, and no HTTP request is made (the queue then fails the job at once, which a
 * plain TypeError would not say as clearly).
 */
import type { z } from 'zod';
import { describeIssues, errorFromInput } from './errors.ts';

/** Parses `value` with `schema` or throws a `permanent`/`badRequest` CollabError. */
export function validate<S extends z.ZodType>(operation: string, schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw errorFromInput(operation, describeIssues(parsed.error));
  return parsed.data;
}

/**
 * A request body without its undefined fields and empty-string fields: optional fields are
 * omitted, never sent empty (required ones are already checked to be non-empty by their schema).
 */
export function compact<T extends object>(body: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(body) as Array<[keyof T, T[keyof T]]>) {
    if (value === undefined || value === '') continue;
    out[key] = value;
  }
  return out;
}

/**
 * A path parameter: a non-empty string, percent-encoded so it stays one path segment. `.` and
 * `..` are refused: encoding leaves them as they are, and a URL resolves them (`/v2/posts/..`
 * is `/v2`), so they could only ever name another path than the one meant.
 */
export function pathParam(operation: string, name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw errorFromInput(operation, `${name}: expected a non-empty string`);
  }
  if (value === '.' || value === '..') {
    throw errorFromInput(operation, `${name}: "${value}" is not an id`);
  }
  return encodeURIComponent(value);
}
