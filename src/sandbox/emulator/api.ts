/**
 * One API request, after faults: authentication, content type, JSON, dispatch to the route.
 * Never throws; every failure is an answer with the service's error body
 * `{"error": {"code", "message"}}` (SERVICE-FACTS.md):
 * - missing or unknown bearer key → 401 "Invalid API key." (checked first);
 * - unknown path → 404; known path, other method → 405 with `Allow`;
 * - a request carrying a body without `Content-Type: application/json` → 415;
 *   a body that is not JSON → 400 `invalid_params`; the routes' own statuses (400, 403, 404,
 *   422) as the service answers them;
 * - an unexpected exception → 500 "Something unexpected happened, please try again."
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { QueryNames } from '../../collab/wire.ts';
import { errorBody, HttpError, MESSAGES } from './http-error.ts';
import type { RouteLookup } from './router.ts';
import type { ApiHandler, ApiResult } from './routes.ts';
import type { OrgState } from './state.ts';

export interface ApiRequest {
  lookup: RouteLookup<ApiHandler>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

export function bearerKey(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return match?.[1];
}

function isJson(contentType: string | undefined): boolean {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json';
}

export const errorResult = (
  status: number,
  message: string,
  headers?: Record<string, string>,
  code?: string | null,
): ApiResult => {
  const body = code === undefined ? errorBody(status, message) : errorBody(status, message, code);
  return headers === undefined ? { status, body } : { status, body, headers };
};

export function handleApi(
  request: ApiRequest,
  orgFor: (apiKey: string) => OrgState | undefined,
  names: QueryNames,
): ApiResult {
  const key = bearerKey(request.headers);
  const org = key === undefined ? undefined : orgFor(key);
  if (!org) return errorResult(401, MESSAGES.unauthorized, { 'www-authenticate': 'Bearer' });

  const { lookup } = request;
  if (lookup.kind === 'notFound') return errorResult(404, MESSAGES.notFound);
  if (lookup.kind === 'methodNotAllowed') {
    return errorResult(405, 'Method not allowed', { allow: lookup.allowed.join(', ') });
  }

  let body: unknown = {};
  if (request.rawBody.length > 0) {
    if (!isJson(request.headers['content-type'])) {
      return errorResult(415, 'Content-Type must be application/json');
    }
    try {
      body = JSON.parse(request.rawBody.toString('utf8'));
    } catch {
      return errorResult(400, 'Malformed JSON body');
    }
  }

  try {
    return lookup.match.handler({ org, params: lookup.match.params, query: request.query, body, names });
  } catch (error) {
    if (error instanceof HttpError) return errorResult(error.status, error.message, undefined, error.code);
    return errorResult(500, MESSAGES.internal);
  }
}
