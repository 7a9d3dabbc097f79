/**
 * The emulator's HTTP server (node:http, keep-alive): records each API request, applies the
 * fault decided for it, hands it to the API, and answers. Control requests go to control.ts.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { queryNames as resolveQueryNames } from '../../collab/wire.ts';
import { listen } from '../listen.ts';
import { errorResult, handleApi } from './api.ts';
import { handleControl } from './control.ts';
import { Faults } from './faults.ts';
import {
  bodyForRecord,
  guessContentType,
  JSON_TYPE,
  readBody,
  redactHeaders,
  sendJson,
  sendRaw,
} from './http.ts';
import { errorBody, HttpError } from './http-error.ts';
import { RateLimiter } from './rate-limit.ts';
import { Router } from './router.ts';
import { API_ROUTES, type ApiHandler } from './routes.ts';
import { seedOrg } from './seed.ts';
import { OrgState } from './state.ts';
import type { Emulator, EmulatorEventMap, EmulatorOptions, ReceivedRequest } from './types.ts';

const CONTROL_PREFIX = '/_emulator';
const PLAIN_TYPE = 'text/plain; charset=utf-8';
/** `received` keeps the latest requests only, so a long sandbox run does not grow forever. */
export const MAX_RECEIVED = 10_000;

/** A fresh, obviously fake key for local runs: `emu_local_key_` + random hex. */
export function generateApiKey(): string {
  return `emu_local_key_${randomBytes(12).toString('hex')}`;
}

/** Cancellable waits, so close() never waits on a pending latency or stall. */
class Waits {
  readonly #pending = new Map<NodeJS.Timeout, (completed: boolean) => void>();

  /** Resolves true after `ms`, or false at once when cancelled. */
  wait(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(timer);
        resolve(true);
      }, ms);
      this.#pending.set(timer, resolve);
    });
  }

  cancelAll(): void {
    for (const [timer, resolve] of this.#pending) {
      clearTimeout(timer);
      resolve(false);
    }
    this.#pending.clear();
  }
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? '127.0.0.1';
  const apiKeys = options.apiKeys?.length ? [...new Set(options.apiKeys)] : [generateApiKey()];
  const firstKey = apiKeys[0] ?? generateApiKey();
  const now = options.now ?? (() => new Date());
  const names = resolveQueryNames(options.queryNames);
  const seed = options.seed ?? true;
  const router = new Router<ApiHandler>(API_ROUTES);
  const faults = new Faults(options.random);
  const received: ReceivedRequest[] = [];
  const events = new EventEmitter<EmulatorEventMap>();
  const orgs = new Map<string, OrgState>();
  const waits = new Waits();
  const limiter = options.rateLimit ? new RateLimiter(options.rateLimit, now) : undefined;
  const blocked = new Set(options.blockedAddresses ?? []);
  let closed = false;

  const orgFor = (key: string | undefined): OrgState => {
    const org = orgs.get(key ?? firstKey);
    if (!org) throw new HttpError(404, 'Unknown organization key');
    return org;
  };

  const reseed = () => {
    for (const org of orgs.values()) {
      org.clear();
      if (seed) seedOrg(org);
    }
  };

  const reset = () => {
    faults.clear();
    received.length = 0;
    reseed();
  };

  async function handleApiRequest(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    url: URL,
    rawBody: Buffer,
  ): Promise<void> {
    const path = url.pathname;
    const lookup = router.lookup(method, path);
    const route = lookup.kind === 'found' ? lookup.match.name : `${method} ${path}`;
    const request: ReceivedRequest = {
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      headers: redactHeaders(req.headers),
      body: bodyForRecord(rawBody),
      at: now().getTime(),
      route,
    };
    received.push(request);
    if (received.length > MAX_RECEIVED) received.splice(0, received.length - MAX_RECEIVED);
    events.emit('request', request);

    // The service's guards come first, before any route (SERVICE-FACTS.md, "Errors and limits").
    const address = req.socket.remoteAddress ?? '';
    if (blocked.has(address)) {
      return sendRaw(res, { status: 403, body: 'Forbidden\n', contentType: PLAIN_TYPE });
    }
    if (limiter && !limiter.take(address)) {
      return sendRaw(res, { status: 429, body: 'Retry later\n', contentType: PLAIN_TYPE });
    }

    const decision = faults.take(route, `${method} ${path}`);
    if (decision.fault) events.emit('fault', { request, fault: decision.fault });
    const rule = decision.fault?.rule;
    const drop = (): void => {
      req.socket.destroy();
    };

    if (decision.latencyMs > 0 && !(await waits.wait(decision.latencyMs))) return drop();
    if (rule?.drop === 'beforeApply') return drop();
    if (rule?.status !== undefined) {
      const body = rule.body ?? JSON.stringify({ message: defaultFaultMessage(rule.status) });
      return sendRaw(res, {
        status: rule.status,
        body,
        contentType: rule.contentType ?? (rule.body === undefined ? JSON_TYPE : guessContentType(rule.body)),
        ...(rule.retryAfter === undefined ? {} : { headers: { 'retry-after': rule.retryAfter } }),
      });
    }

    const result = handleApi(
      { lookup, query: url.searchParams, headers: req.headers, rawBody },
      orgs.get.bind(orgs),
      names,
    );
    events.emit('handled', { request, status: result.status });

    if (rule?.drop === 'afterApply') return drop();
    if (rule?.stallMs !== undefined && rule.stallMs > 0 && !(await waits.wait(rule.stallMs))) return drop();

    let body = JSON.stringify(result.body);
    let contentType = JSON_TYPE;
    if (rule?.malformedJson) {
      body = body.slice(0, Math.max(1, Math.floor(body.length / 2)));
      contentType = rule.contentType ?? JSON_TYPE;
    } else if (rule?.body !== undefined) {
      body = rule.body;
      contentType = rule.contentType ?? guessContentType(rule.body);
    }
    sendRaw(res, {
      status: result.status,
      body,
      contentType,
      ...(result.headers === undefined ? {} : { headers: result.headers }),
    });
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    let rawBody: Buffer;
    try {
      rawBody = await readBody(req);
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 400;
      const message = error instanceof Error ? error.message : 'Unreadable body';
      res.setHeader('connection', 'close');
      return sendJson(res, status, errorBody(status, message));
    }
    if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
      const result = handleControl(
        {
          orgFor,
          organizations: orgs.size,
          faults,
          received,
          reset,
          apiRoutes: router.names,
          queryNames: names,
        },
        method,
        url.pathname,
        url.searchParams,
        rawBody,
      );
      return sendJson(res, result.status, result.body);
    }
    return handleApiRequest(req, res, method, url, rawBody);
  }

  const server = createServer({ keepAlive: true }, (req, res) => {
    onRequest(req, res).catch((error: unknown) => {
      // An emulator bug: answer 500 and say so on stderr rather than hanging the client.
      console.error('emulator: unexpected error', error);
      const answer = errorResult(500, 'Internal emulator error');
      sendJson(res, answer.status, answer.body);
    });
  });
  server.keepAliveTimeout = 5_000;

  const address = await listen(server, options.port ?? 0, host);
  const hostInUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostInUrl}:${address.port}`;

  for (const key of apiKeys) orgs.set(key, new OrgState({ apiKey: key, baseUrl: url, now }));
  reseed();

  return {
    url,
    apiKey: firstKey,
    apiKeys,
    queryNames: names,
    org: (apiKey?: string) => {
      const org = orgs.get(apiKey ?? firstKey);
      if (!org) throw new Error('startEmulator: no organization has this API key');
      return org;
    },
    faults,
    received,
    events,
    reset,
    close: async () => {
      if (closed) return;
      closed = true;
      waits.cancelAll();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await done;
    },
  };
}

function defaultFaultMessage(status: number): string {
  if (status === 429) return 'Rate limit exceeded';
  if (status === 503) return 'Service unavailable';
  if (status >= 500) return 'Internal server error';
  return `Injected fault ${status}`;
}
