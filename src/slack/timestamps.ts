/**
 * Slack request timestamps both ways: Bolt refuses a signed request older than 5 minutes (a
 * replay) but not one from the future, which a captured request signed ahead of time would be.
 * This refuses those too, with the same 401, before Bolt reads the body.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/** How far a request's timestamp may be from now, either way (Slack's own rule for the past). */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

/** Whether a Slack timestamp header names a moment more than the tolerance ahead of `nowMs`. */
export function isFromTheFuture(header: string | string[] | undefined, nowMs = Date.now()): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d+$/.test(value.trim())) return false;
  return Number(value) > Math.floor(nowMs / 1000) + TIMESTAMP_TOLERANCE_SECONDS;
}

/** Wraps a receiver's listener: requests to `endpoint` timestamped in the future get 401. */
export function refuseFutureTimestamps(listener: RequestListener, endpoint: string): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === endpoint && isFromTheFuture(req.headers['x-slack-request-timestamp'])) {
      req.resume();
      res.writeHead(401, { 'content-type': 'text/plain' }).end();
      return;
    }
    listener(req, res);
  };
}
