/**
 * Talks to a Bolt HTTP endpoint the way Slack does: signs the raw body and POSTs it to
 * `${baseUrl}/slack/events` with Slack's content type for the kind of request.
 *
 * Getting the port of `app.start(0)` (Bolt 5, default HTTPReceiver): `start` resolves with the
 * listening `http.Server` (typed as the union of http/https servers via `App#start`'s return
 * type; both are `net.Server`), so
 *
 *   const server = await app.start(0);
 *   const { port } = server.address() as AddressInfo;   // import type { AddressInfo } from 'node:net'
 *   const baseUrl = `http://127.0.0.1:${port}`;
 *
 * `boltBaseUrl(server)` below does exactly that. Stop with `await app.stop()`.
 */
import type { AddressInfo, Server } from 'node:net';
import { signSlackRequest } from '../../src/sandbox/slack/sign.ts';

export type SlackRequestKind = 'command' | 'interaction' | 'event';

export interface BoltResponse {
  status: number;
  /** Raw response text (Bolt acks with an empty body, a JSON body, or a plain-text error). */
  body: string;
  /** Parses `body` as JSON; throws with the raw body if it is not JSON. */
  json<T = unknown>(): T;
  /** Wall time of the round trip; for logs and benchmarks, never for assertions. */
  elapsedMs: number;
}

const CONTENT_TYPES: Record<SlackRequestKind, string> = {
  command: 'application/x-www-form-urlencoded',
  interaction: 'application/x-www-form-urlencoded',
  event: 'application/json',
};

/** `http://127.0.0.1:<port>` of a server returned by `app.start(0)`. */
export function boltBaseUrl(server: Server): string {
  const address = server.address();
  if (address === null || typeof address === 'string') {
    throw new Error(`Bolt server is not listening on a TCP port (address: ${String(address)})`);
  }
  const { port } = address satisfies AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/**
 * Signs `body` with `signingSecret` (current time) and POSTs it to `${baseUrl}/slack/events`.
 * `headers` are added last: pass `x-slack-signature` / `x-slack-request-timestamp` to override the
 * signature (bad signature, stale timestamp), or `x-slack-retry-num` to simulate a retry.
 */
export async function postToBolt(
  baseUrl: string,
  signingSecret: string,
  kind: SlackRequestKind,
  body: string,
  headers: Record<string, string> = {},
): Promise<BoltResponse> {
  const started = performance.now();
  const response = await fetch(`${baseUrl.replace(/\/$/, '')}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': CONTENT_TYPES[kind],
      ...signSlackRequest(signingSecret, body),
      ...headers,
    },
    body,
  });
  const text = await response.text();
  const elapsedMs = performance.now() - started;
  return {
    status: response.status,
    body: text,
    elapsedMs,
    json<T = unknown>(): T {
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new Error(`Bolt answered ${response.status} with a non-JSON body: ${text.slice(0, 500)}`);
      }
    },
  };
}
