/**
 * The jobs dashboard (bull-board) on the web role, at `/jobs`: every job of the operations queue
 * by state, failed ones with their reason and stack. Off unless JOBS_DASHBOARD_USER and
 * JOBS_DASHBOARD_PASSWORD are set; behind HTTP Basic authentication (compared in constant time);
 * read-only unless JOBS_DASHBOARD_WRITE (bull-board refuses retries, removals and cleaning with
 * 405 on a read-only queue). Its modules are loaded only when it is on.
 *
 * Bolt's receiver serves it as custom routes: bull-board's Express adapter is a plain
 * `(req, res, next)` handler, and Express already comes with Bolt.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CustomRoute } from '@slack/bolt';
import type { Queue } from 'bullmq';

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
): Promise<CustomRoute[]> {
  const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/express'),
  ]);
  const server = new ExpressAdapter();
  server.setBasePath(DASHBOARD_PATH);
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: !settings.write })),
    serverAdapter: server,
    options: { uiConfig: { boardTitle: 'collab-slack jobs' } },
  });
  const router = server.getRouter() as Router;
  const allowed = credentialsCheck(settings.user, settings.password);

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (!allowed(req.headers.authorization)) {
      res.writeHead(401, {
        'www-authenticate': 'Basic realm="collab-slack jobs", charset="UTF-8"',
        'content-type': 'text/plain',
        'cache-control': 'no-store',
      });
      res.end('authentication required');
      return;
    }
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
