/**
 * An error the emulator answers with its status and the service's error body
 * `{"error": {"code": <string or null>, "message": "…"}}` (SERVICE-FACTS.md).
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  readonly code: string | null;

  constructor(status: number, message: string, code: string | null = defaultCode(status)) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The service's messages for the statuses it answers with a fixed text. */
export const MESSAGES = {
  unauthorized: 'Invalid API key.',
  notFound: 'Record not found.',
  forbidden: 'You do not have access to this resource.',
  internal: 'Something unexpected happened, please try again.',
} as const;

function defaultCode(status: number): string | null {
  switch (status) {
    case 400:
      return 'invalid_params';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 422:
      return 'unprocessable';
    case 500:
      return 'internal_server_error';
    default:
      return null;
  }
}

export interface ErrorBody {
  error: { code: string | null; message: string };
}

export function errorBody(
  status: number,
  message: string,
  code: string | null = defaultCode(status),
): ErrorBody {
  return { error: { code, message } };
}

export function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}

/** 404 with the service's own message; `detail` is for the emulator's readers only (ignored). */
export function notFound(_detail?: string): HttpError {
  return new HttpError(404, MESSAGES.notFound);
}

export function forbidden(): HttpError {
  return new HttpError(403, MESSAGES.forbidden);
}

export function unprocessable(message: string): HttpError {
  return new HttpError(422, message);
}
