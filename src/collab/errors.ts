/**
 * The one place where a failed call to the collaboration API gets its kind.
 * Decided by HTTP status and transport only (the error body shape is "not shown");
 * a message-like field of a JSON body, or a trimmed text body, only adds words.
 */

export type CollabErrorKind = 'retryable' | 'rateLimited' | 'permanent' | 'ambiguous';

/** What went wrong, in words a person can act on. */
export type CollabErrorReason =
  | 'network' // nothing was written: connection refused, DNS, TLS
  | 'timeout' // the request was written, no answer in time
  | 'reset' // the connection dropped after the request was written
  | 'rateLimited' // 429
  | 'server' // 5xx
  | 'unauthorized' // 401: the key was rejected
  | 'forbidden' // 403: the key may not do this
  | 'notFound' // 404
  | 'badRequest' // other 4xx
  | 'invalidResponse'; // 2xx whose body is not what the spec describes

export interface CollabErrorInit {
  kind: CollabErrorKind;
  reason: CollabErrorReason;
  operation: string;
  status?: number;
  retryAfterMs?: number;
  detail?: string;
  cause?: unknown;
}

export class CollabError extends Error {
  override readonly name = 'CollabError';
  readonly kind: CollabErrorKind;
  readonly reason: CollabErrorReason;
  /** The client method that failed, e.g. `createPost`. */
  readonly operation: string;
  readonly status: number | undefined;
  /** From `Retry-After` when the service sent one; absent otherwise (back off instead). */
  readonly retryAfterMs: number | undefined;
  /** Text from the service's body, trimmed; never contains the API key. */
  readonly detail: string | undefined;

  constructor(init: CollabErrorInit) {
    super(describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.reason = init.reason;
    this.operation = init.operation;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.detail = init.detail;
  }

  toJSON() {
    return {
      name: this.name,
      kind: this.kind,
      reason: this.reason,
      operation: this.operation,
      status: this.status,
      retryAfterMs: this.retryAfterMs,
      message: this.message,
    };
  }
}

function describe(init: CollabErrorInit): string {
  const head = init.status ? `${init.operation} failed with HTTP ${init.status}` : `${init.operation} failed`;
  const why = REASON_TEXT[init.reason];
  return init.detail ? `${head}: ${why} (${init.detail})` : `${head}: ${why}`;
}

const REASON_TEXT: Record<CollabErrorReason, string> = {
  network: 'the service could not be reached',
  timeout: 'the service did not answer in time',
  reset: 'the connection dropped before the service answered',
  rateLimited: 'the service is rate limiting requests',
  server: 'the service had an error',
  unauthorized: 'the API key was rejected',
  forbidden: 'the API key is not allowed to do this',
  notFound: 'not found',
  badRequest: 'the service refused the request',
  invalidResponse: 'the service answered with an unexpected response',
};

export function isCollabError(error: unknown): error is CollabError {
  return error instanceof CollabError;
}

/**
 * Gateway answers: a proxy in front of the service gave up on it (bad gateway, gateway timeout)
 * after the request reached it, so a write may have been applied behind the proxy.
 */
const GATEWAY_STATUSES = new Set([502, 504]);

/**
 * Classifies a received HTTP status that is not 2xx. A write answered by a gateway (502, 504) is
 * ambiguous: the service may have applied it before the proxy gave up. Any other 5xx, a 429 and
 * a 4xx come from the service itself and were refused before anything was applied.
 */
export function errorFromStatus(
  operation: string,
  status: number,
  body: string,
  retryAfterHeader: string | undefined,
  now: number = Date.now(),
  method = 'GET',
): CollabError {
  const detail = detailFromBody(body);
  if (status === 429) {
    return new CollabError({
      kind: 'rateLimited',
      reason: 'rateLimited',
      operation,
      status,
      retryAfterMs: parseRetryAfter(retryAfterHeader, now),
      detail,
    });
  }
  if (status >= 500) {
    const maybeApplied = GATEWAY_STATUSES.has(status) && method !== 'GET' && method !== 'HEAD';
    return new CollabError({
      kind: maybeApplied ? 'ambiguous' : 'retryable',
      reason: 'server',
      operation,
      status,
      detail,
    });
  }
  const reason: CollabErrorReason =
    status === 401
      ? 'unauthorized'
      : status === 403
        ? 'forbidden'
        : status === 404
          ? 'notFound'
          : 'badRequest';
  return new CollabError({ kind: 'permanent', reason, operation, status, detail });
}

/**
 * Classifies a transport failure. `written` says whether the request had been fully sent:
 * before that nothing can have happened on the service (retryable); after it, a create may
 * have been applied (ambiguous).
 */
export function errorFromTransport(operation: string, cause: unknown, written: boolean): CollabError {
  const code = transportCode(cause);
  const isTimeout =
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'ETIMEDOUT' ||
    code === 'ABORT_ERR' ||
    code === 'UND_ERR_ABORTED';
  // A timeout waiting for an answer (headers, body) implies the request was written.
  const answerTimeout = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
  if (!written && !answerTimeout) {
    // Nothing reached the service (refused, DNS, connect timeout, or aborted before writing).
    return new CollabError({
      kind: 'retryable',
      reason: isTimeout ? 'timeout' : 'network',
      operation,
      detail: code,
      cause: safeCause(cause),
    });
  }
  return new CollabError({
    kind: 'ambiguous',
    reason: isTimeout ? 'timeout' : 'reset',
    operation,
    detail: code,
    cause: safeCause(cause),
  });
}

/**
 * Classifies a 2xx whose body is not what the spec describes (not JSON, or failing the schema).
 * A write (POST, DELETE) that answered 2xx was very likely applied: retrying it blindly could
 * duplicate it, so it is ambiguous. A read is safe to repeat, so it is retryable.
 * `detail` must name only paths and expectations (zod issue paths), never values.
 */
export function errorFromInvalidResponse(
  operation: string,
  method: string,
  status: number,
  detail: string,
): CollabError {
  const safe = method === 'GET' || method === 'HEAD';
  return new CollabError({
    kind: safe ? 'retryable' : 'ambiguous',
    reason: 'invalidResponse',
    operation,
    status,
    detail: clip(detail),
  });
}

/**
 * Zod issues as `path: message`, for an error's detail. zod's own messages say what was
 * expected, not the value received, so no data (and no secret) is quoted.
 */
export function describeIssues(error: {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
}): string {
  return error.issues
    .slice(0, 5)
    .map(
      (issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)'}: ${issue.message}`,
    )
    .join('; ');
}

/** A call refused before any request was made: a bad option or input of the caller. */
export function errorFromInput(operation: string, detail: string): CollabError {
  return new CollabError({ kind: 'permanent', reason: 'badRequest', operation, detail: clip(detail) });
}

/** `Retry-After` as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: number = Date.now()): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

const MESSAGE_FIELDS = ['message', 'error_description', 'error', 'detail', 'title', 'description'];
const DETAIL_MAX = 300;

/** A message-like field of a JSON body, or the trimmed text of any other body; never throws. */
export function detailFromBody(body: string): string | undefined {
  const text = body.trim();
  if (text === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    const found = findMessage(parsed, 0);
    return found === undefined ? undefined : clip(found);
  } catch {
    // Not JSON: plain text or HTML. Strip tags so an HTML error page reads as words.
    const stripped = text
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return stripped === '' ? undefined : clip(stripped);
  }
}

function findMessage(value: unknown, depth: number): string | undefined {
  if (depth > 2 || value === null || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  for (const field of MESSAGE_FIELDS) {
    const v = record[field];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  for (const field of ['error', 'errors']) {
    const v = record[field];
    const nested = Array.isArray(v) ? v[0] : v;
    const found = findMessage(nested, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function clip(text: string): string {
  return text.length > DETAIL_MAX ? `${text.slice(0, DETAIL_MAX - 1)}…` : text;
}

function transportCode(cause: unknown): string | undefined {
  if (cause && typeof cause === 'object') {
    const record = cause as { code?: unknown; name?: unknown; cause?: unknown };
    if (typeof record.code === 'string') return record.code;
    if (record.name === 'AbortError' || record.name === 'TimeoutError') return 'ABORT_ERR';
    if (record.cause) return transportCode(record.cause);
  }
  return undefined;
}

/** Keeps only the name and code of a transport error: its message could quote request headers. */
function safeCause(cause: unknown): { name: string; code?: string } {
  const name = cause instanceof Error ? cause.name : 'Error';
  const code = transportCode(cause);
  return code === undefined ? { name } : { name, code };
}
