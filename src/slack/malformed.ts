/**
 * Malformed Slack requests are refused at once, never handed to Bolt (requestShape.ts says what
 * malformed is), slow ones are not waited for, and no request is left unanswered:
 *
 * - HTTP: a signed body is read and parsed here, before Bolt's receiver (which reads `ssl_check`
 *   of whatever it parsed, outside any handler); one of the wrong shape gets 400 and a log line.
 *   Everything else goes on to the receiver with the body already read, and Bolt checks the
 *   signature again and answers as it always does (401, 413, its own 400 for unparseable JSON).
 *   Slack gives up on a request after 3 s: a body still arriving then is answered 408 and its
 *   connection closed, however long the server's own request timeout (HTTP_REQUEST_TIMEOUT_MS).
 * - Every transport (Socket Mode included): `processEvent` checks the shape again, and a request
 *   no listener acked (an id or type nothing is registered for) is acked as soon as Bolt is done
 *   with it, not left to Bolt's 3 s timer and its 404.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { type App, HTTPModuleFunctions, isValidSlackRequest, type ReceiverEvent } from '@slack/bolt';
import type { Logger } from '../logger.ts';
import { malformedReason } from './requestShape.ts';

/** How long a Slack request's body may take to arrive (Slack stops waiting for the answer at 3 s). */
export const SLACK_BODY_DEADLINE_MS = 3000;

export interface MalformedSettings {
  endpoint: string;
  signingSecret: string;
  bodyLimit: number;
  logger: Logger;
  /** default {@link SLACK_BODY_DEADLINE_MS} */
  deadlineMs?: number;
}

/** Wraps a receiver's listener: signed requests to `endpoint` with a malformed body get 400. */
export function refuseMalformed(listener: RequestListener, settings: MalformedSettings): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== settings.endpoint) {
      listener(req, res);
      return;
    }
    const deadline = setTimeout(() => {
      settings.logger.warn('a Slack request was still arriving after its deadline; closed');
      if (res.headersSent) {
        req.socket.destroy();
        return;
      }
      res.writeHead(408, { connection: 'close', 'content-type': 'text/plain' });
      res.end('request timeout', () => req.socket.destroy());
    }, settings.deadlineMs ?? SLACK_BODY_DEADLINE_MS);
    check(req, settings)
      .finally(() => clearTimeout(deadline))
      .then(
        (reason) => {
          if (reason === undefined) {
            listener(req, res);
            return;
          }
          settings.logger.warn({ reason }, 'malformed Slack request refused');
          res.writeHead(400, { 'content-type': 'text/plain' }).end('malformed request');
        },
        (error: unknown) => {
          // The body could not be read: answered as Bolt answers it (it cannot be read twice).
          const tooLarge = HTTPModuleFunctions.isRawBodyError(error) && error.type === 'entity.too.large';
          settings.logger.warn({ err: error }, 'could not read a Slack request');
          // A request past its timeout was answered (408) and closed by node:http already.
          if (!res.headersSent && !res.destroyed) res.writeHead(tooLarge ? 413 : 400).end();
        },
      );
  };
}

/** Why a signed body is refused; undefined also for what Bolt refuses itself (unsigned, unparseable). */
async function check(req: IncomingMessage, settings: MalformedSettings): Promise<string | undefined> {
  const buffered = await HTTPModuleFunctions.bufferIncomingMessage(req, settings.bodyLimit);
  const raw = buffered.rawBody.toString();
  const signature = req.headers['x-slack-signature'];
  const timestamp = req.headers['x-slack-request-timestamp'];
  if (typeof signature !== 'string' || typeof timestamp !== 'string') return undefined;
  const signed = isValidSlackRequest({
    signingSecret: settings.signingSecret,
    body: raw,
    headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': Number(timestamp) },
  });
  if (!signed) return undefined;
  let body: unknown;
  try {
    body = HTTPModuleFunctions.parseHTTPRequestBody(buffered);
  } catch {
    return undefined;
  }
  return malformedReason(body);
}

/**
 * Wraps `app.processEvent`: a malformed body (Socket Mode; HTTP refused it already) is acked and
 * dropped, and a request Bolt finished with and no listener acked is acked then. `onAck` hears
 * every ack (HTTP and Socket Mode alike): the body, and the seconds since the request came in.
 */
export function answerEveryRequest(
  app: App,
  logger: Logger,
  onAck?: (body: Record<string, unknown>, seconds: number) => void,
): void {
  const processEvent = app.processEvent.bind(app);
  app.processEvent = async (event: ReceiverEvent) => {
    const started = performance.now();
    const reason = malformedReason(event.body);
    if (reason !== undefined) {
      logger.warn({ reason }, 'malformed Slack request refused');
      await event.ack();
      return;
    }
    let acked = false;
    const ack: ReceiverEvent['ack'] = async (response) => {
      acked = true;
      onAck?.(event.body, (performance.now() - started) / 1000);
      return event.ack(response);
    };
    await processEvent({ ...event, ack });
    if (!acked) {
      logger.warn({ type: event.body.type }, 'no listener answered a Slack request; acked empty');
      await ack();
    }
  };
}
