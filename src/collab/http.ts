/**
 * The request/response/error path of the client: one HTTP exchange with the service, its
 * outcome validated with a zod schema or turned into a CollabError (through errors.ts only).
 * No retries here: the queue retries, where attempts are visible and durable.
 *
 * The API key lives only in the Authorization header given to undici. It is never put into an
 * error, its message, detail or cause: bodies quoted in errors are scrubbed of it, transport
 * errors are reduced to their name and code (errors.ts).
 */
import { performance } from 'node:perf_hooks';
import { buildConnector, type Dispatcher, Pool, request } from 'undici';
import type { z } from 'zod';
import { type BudgetScope, PERSON_SCOPE, type RequestBudget } from './budget.ts';
import {
  type CollabError,
  type CollabErrorKind,
  describeIssues,
  errorFromInvalidResponse,
  errorFromStatus,
  errorFromTransport,
  isCollabError,
} from './errors.ts';
import { type OutboundGuard, RefusedTargetError } from './outbound.ts';
import { type WriteProgress, WriteTracker } from './written.ts';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface ResponseEvent {
  operation: string;
  method: string;
  status: number | undefined;
  durationMs: number;
  error?: CollabErrorKind;
}

export interface Timeouts {
  connectMs?: number;
  headersMs?: number;
  bodyMs?: number;
}

export const DEFAULT_TIMEOUTS: Required<Timeouts> = { connectMs: 5_000, headersMs: 10_000, bodyMs: 10_000 };
export const DEFAULT_CONNECTIONS = 16;

export interface HttpOptions {
  baseUrl: string;
  apiKey: string;
  timeouts?: Timeouts;
  connections?: number;
  dispatcher?: Dispatcher;
  onResponse?: (event: ResponseEvent) => void;
  /** Checks the address of every connection (URLs entered by workspace admins); see outbound.ts. */
  guard?: OutboundGuard;
  /** The request budget of the service host: asked before every request, told of every 429. */
  budget?: RequestBudget;
}

export interface Exchange<T> {
  /** The client method, e.g. `createPost`; names the operation in errors and metrics. */
  operation: string;
  method: HttpMethod;
  /** Path below the base url, starting with `/v2/`; path parameters already encoded. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  schema: z.ZodType<T>;
  signal?: AbortSignal | undefined;
  /** the request budget's lane and workspace; none: a person's */
  scope?: BudgetScope | undefined;
}

export interface Http {
  send<T>(exchange: Exchange<T>): Promise<T>;
  close(): Promise<void>;
}

/** A success body larger than this is not a page of at most 50 records: refused. */
const SUCCESS_BODY_MAX = 16 * 1024 * 1024;
/** Of an error body only this much is read (its text only adds words to the error). */
const ERROR_BODY_MAX = 64 * 1024;

/** A non-2xx answer as the error it is; its body's text (redacted) only adds words. */
async function statusError(
  call: Exchange<unknown>,
  response: Dispatcher.ResponseData,
  redact: (text: string) => string,
): Promise<CollabError> {
  const text = await readCapped(response.body, ERROR_BODY_MAX).then(
    (read) => read.text,
    () => '',
  );
  return errorFromStatus(
    call.operation,
    response.statusCode,
    redact(text),
    header(response.headers['retry-after']),
    Date.now(),
    call.method,
  );
}

/** A 2xx answer's body, refused above SUCCESS_BODY_MAX. */
async function successText(call: Exchange<unknown>, response: Dispatcher.ResponseData): Promise<string> {
  try {
    const read = await readCapped(response.body, SUCCESS_BODY_MAX);
    if (read.truncated) {
      throw errorFromInvalidResponse(
        call.operation,
        call.method,
        response.statusCode,
        `body larger than ${SUCCESS_BODY_MAX} bytes`,
      );
    }
    return read.text;
  } catch (error) {
    if (isCollabError(error)) throw error;
    // The status arrived, then the body broke off: the request was written.
    throw errorFromTransport(call.operation, error, true);
  }
}

export function createHttp(options: HttpOptions): Http {
  const base = parseBaseUrl(options.baseUrl);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...(options.timeouts ?? {}) };
  const own = options.dispatcher === undefined;
  if (options.guard && !own) throw new TypeError('collab client: an outbound guard needs its own pool');
  const dispatcher: Dispatcher =
    options.dispatcher ??
    new Pool(base.origin, {
      connections: options.connections ?? DEFAULT_CONNECTIONS,
      connect: options.guard
        ? guardedConnector(timeouts.connectMs, options.guard)
        : { timeout: timeouts.connectMs },
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
    });
  const tracker = new WriteTracker(dispatcher, own);
  const redact = redactor(options.apiKey);
  const headers = {
    authorization: `Bearer ${options.apiKey}`,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  let closed: Promise<void> | undefined;

  function report(event: ResponseEvent): void {
    if (!options.onResponse) return;
    try {
      options.onResponse(event);
    } catch {
      // A metrics hook must never change the outcome of a call.
    }
  }

  async function exchange<T>(call: Exchange<T>): Promise<{ status: number; value: T }> {
    const url = new URL(`${base.pathPrefix}${call.path}`, base.origin);
    for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.append(name, value);
    const progress: WriteProgress = { connected: false, sent: false };
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        dispatcher: tracker.track(progress),
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: call.signal,
        headersTimeout: timeouts.headersMs,
        bodyTimeout: timeouts.bodyMs,
      });
    } catch (error) {
      throw errorFromTransport(call.operation, error, tracker.wasWritten(progress, error));
    }

    const status = response.statusCode;
    if (status < 200 || status >= 300) throw await statusError(call, response, redact);
    const text = await successText(call, response);
    return { status, value: parseBody(call, status, text, redact) };
  }

  const budget = options.budget;
  const host = new URL(base.origin).host;
  /** The exchange, within the host's request budget (budget.ts): its turn first, a 429 told. */
  async function budgeted<T>(call: Exchange<T>): Promise<{ status: number; value: T }> {
    try {
      return await exchange(call);
    } catch (error) {
      if (budget && isCollabError(error) && error.status === 429) {
        await budget.refused(host, error.retryAfterMs).catch(() => {});
      }
      throw error;
    }
  }

  return {
    async send<T>(call: Exchange<T>): Promise<T> {
      // The wait for a turn is not the service's latency: it is not in the metrics.
      if (budget) await budget.take(host, call.operation, call.scope ?? PERSON_SCOPE, call.signal);
      const started = performance.now();
      try {
        const { status, value } = await budgeted(call);
        report({
          operation: call.operation,
          method: call.method,
          status,
          durationMs: performance.now() - started,
        });
        return value;
      } catch (error) {
        const failure: CollabError | undefined = isCollabError(error) ? error : undefined;
        report({
          operation: call.operation,
          method: call.method,
          status: failure?.status,
          durationMs: performance.now() - started,
          ...(failure ? { error: failure.kind } : {}),
        });
        throw error;
      }
    },
    close(): Promise<void> {
      // A dispatcher given by the caller is shared: its owner closes it.
      closed ??= own ? dispatcher.close() : Promise.resolve();
      return closed;
    },
  };
}

function parseBody<T>(call: Exchange<T>, status: number, text: string, redact: (s: string) => string): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw errorFromInvalidResponse(call.operation, call.method, status, 'body is not valid JSON');
  }
  const parsed = call.schema.safeParse(json);
  if (!parsed.success) {
    throw errorFromInvalidResponse(call.operation, call.method, status, redact(describeIssues(parsed.error)));
  }
  return parsed.data;
}

async function readCapped(
  body: Dispatcher.ResponseData['body'],
  max: number,
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > max) {
      chunks.push(buffer.subarray(0, buffer.length - (size - max)));
      body.destroy();
      return { text: Buffer.concat(chunks).toString('utf8'), truncated: true };
    }
    chunks.push(buffer);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function redactor(apiKey: string): (text: string) => string {
  return (text) => (apiKey === '' ? text : text.split(apiKey).join('[redacted]'));
}

/** `{base_url}`: origin plus an optional path prefix; a trailing slash is tolerated. */
function parseBaseUrl(baseUrl: string): { origin: string; pathPrefix: string } {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError('collab client: baseUrl is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError('collab client: baseUrl must be an http or https URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError('collab client: baseUrl must not carry credentials');
  }
  return { origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, '') };
}

/**
 * A connector that resolves through the guard and connects to the address it checked; an
 * address literal (which net.connect does not resolve) is checked here.
 */
function guardedConnector(timeout: number, guard: OutboundGuard): buildConnector.connector {
  const connect = buildConnector({ timeout, lookup: guard.lookup } as buildConnector.BuildOptions);
  return (opts, callback) => {
    const refused = guard.refusedLiteral(opts.hostname);
    if (refused) {
      callback(new RefusedTargetError(refused), null);
      return;
    }
    connect(opts, callback);
  };
}
