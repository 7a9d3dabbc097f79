/**
 * An error the emulator answers as `{ "message": "..." }` with its status.
 * The spec leaves the error body shape "not shown"; the emulator's choice is the common
 * `{ message }` form (which the client's classifier reads, and classifies by status only).
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}

export function notFound(message: string): HttpError {
  return new HttpError(404, message);
}

export function unprocessable(message: string): HttpError {
  return new HttpError(422, message);
}
