/**
 * The jobs dashboard (bull-board) on the web role, at `/jobs`: every job of the operations queue
 * by state, failed ones with their reason and stack. Off unless JOBS_DASHBOARD_USER and
 * JOBS_DASHBOARD_PASSWORD are set; behind HTTP Basic authentication (compared in constant time);
 * read-only unless JOBS_DASHBOARD_WRITE (bull-board refuses retries, removals and cleaning with
 * 405 on a read-only queue). Its modules are loaded only when it is on.
 *
 * Guessing is throttled per client (loginThrottle.ts: 10 wrong guesses, then 429 until the
 * ten-minute window ends); no page of it may be framed (`X-Frame-Options: DENY`, CSP
 * `frame-ancestors 'none'`), so its write buttons cannot be clickjacked; and the job data it
 * shows has response urls and tokens redacted (each a capability: a response_url posts in a
 * channel for 30 minutes, a workflow step's token acts as the app).
 *
 * Bolt's receiver serves it as custom routes: bull-board's Express adapter is a plain
 * `(req, res, next)` handler, and Express already comes with Bolt.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CustomRoute } from '@slack/bolt';
import type { Queue } from 'bullmq';
import { scrubText } from '../logger.ts';
import { clientOf, type LoginThrottle, loginThrottle } from './loginThrottle.ts';

export const DASHBOARD_PATH = '/jobs';

export interface DashboardSettings {
  user: string;
  password: string;
  /** retries, removals and cleaning allowed; read-only otherwise */
  write: boolean;
}

type Router = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** The dashboard as Bolt custom routes: `/jobs` and everything below it, every method. */
export async function dashboardRoutes(
  queues: readonly Queue[],
  settings: DashboardSettings,
  throttle: LoginThrottle = loginThrottle(),
): Promise<CustomRoute[]> {
  const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/express'),
  ]);
  const server = new ExpressAdapter();
  server.setBasePath(DASHBOARD_PATH);
  createBullBoard({
    queues: queues.map((queue) => {
      const adapter = new BullMQAdapter(queue, { readOnlyMode: !settings.write });
      adapter.setFormatter('data', redactJobData);
      adapter.setFormatter('returnValue', redactJobData);
      adapter.setFormatter('progress', redactJobData);
      return adapter;
    }),
    serverAdapter: server,
    options: { uiConfig: { boardTitle: 'collab-slack jobs' } },
  });
  const router = server.getRouter() as Router;
  const allowed = credentialsCheck(settings.user, settings.password);

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    const client = clientOf(req.socket.remoteAddress);
    const lockedMs = throttle.lockedFor(client);
    if (lockedMs > 0) {
      res.writeHead(429, { 'retry-after': String(Math.ceil(lockedMs / 1000)), 'content-type': 'text/plain' });
      res.end('too many wrong passwords; try again later');
      return;
    }
    const credentials = req.headers.authorization;
    if (!allowed(credentials)) {
      if (credentials !== undefined) throttle.failed(client);
      res.writeHead(401, {
        'www-authenticate': 'Basic realm="collab-slack jobs", charset="UTF-8"',
        'content-type': 'text/plain',
        'cache-control': 'no-store',
      });
      res.end('authentication required');
      return;
    }
    throttle.succeeded(client);
    // The router serves paths below the mount point, as Express's app.use would hand them over.
    const url = req.url ?? '/';
    req.url = url.slice(DASHBOARD_PATH.length) || '/';
    if (!req.url.startsWith('/')) req.url = `/${req.url}`;
    res.setHeader('cache-control', 'no-store');
    router(req, res, () => {
      if (res.headersSent) return;
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    });
  };
  const method = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  return [
    { path: DASHBOARD_PATH, method, handler },
    { path: `${DASHBOARD_PATH}/*rest`, method, handler },
  ];
}

/** On every answer of the dashboard, credentials asked for or not. */
const SECURITY_HEADERS = {
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Job data's fields that are capabilities in themselves: shown as `[redacted]`. */
const CAPABILITY_FIELD = /^(response_?url|token|bot_access_token|access_token|refresh_token|api_?key)$/i;

/** A Slack response url inside text (an error message, say). */
const SLACK_RESPONSE_URL = /https:\/\/hooks\.slack\.com\/\S+/g;

/**
 * Job data as the dashboard shows it: response urls and tokens redacted, at any depth, whether
 * in a field of their own or inside text (scrubText).
 */
export function redactJobData(value: unknown): unknown {
  if (typeof value === 'string') return scrubText(value).replace(SLACK_RESPONSE_URL, '[redacted]');
  if (Array.isArray(value)) return value.map(redactJobData);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [
      key,
      CAPABILITY_FIELD.test(key) && field !== undefined && field !== null
        ? '[redacted]'
        : redactJobData(field),
    ]),
  );
}

/** Checks an `Authorization: Basic …` header; compares digests so neither length nor content leaks. */
export function credentialsCheck(user: string, password: string): (header: string | undefined) => boolean {
  const expected = digest(`${user}:${password}`);
  return (header) => {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
    const given = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
    return timingSafeEqual(digest(given), expected) && match !== null;
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
