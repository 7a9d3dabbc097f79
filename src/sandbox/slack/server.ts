import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from '../listen.ts';
import { type Answer, type CallFacts, Rulebook, ratelimited, type Verdict } from './enforce.ts';
import { Lifetimes } from './lifetimes.ts';
import { handleMethod } from './methods.ts';
import { newTriggerId } from './payloads.ts';
import { RateLimiter } from './rateLimits.ts';
import { parseApiRequest, parseResponseUrlBody, readBody } from './request.ts';
import { resolveRules } from './rules.ts';
import { trafficOf } from './traffic.ts';
import type {
  RecordedCall,
  SlackStandIn,
  SlackStandInOptions,
  StoredMessage,
  WaitForOptions,
} from './types.ts';
import { type Failure, SlackWorld } from './world.ts';

interface Waiter {
  predicate: (call: RecordedCall) => boolean;
  resolve: (call: RecordedCall) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

function send(res: ServerResponse, answer: Answer): void {
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...answer.headers,
  });
  res.end(body);
}

function failureAnswer(error: string, retryAfterSec: number, notOkStatus: number): Answer {
  if (error === 'ratelimited') return ratelimited(retryAfterSec);
  return { status: notOkStatus, body: { ok: false, error } };
}

/** The answer of a call the rules let through, or refused, or a test scheduled to fail. */
function verdictAnswer(
  failure: Failure | undefined,
  verdict: Verdict,
  handle: () => Record<string, unknown>,
): { answer: Answer; refused?: RecordedCall['refused'] } {
  if (failure !== undefined) {
    const retryAfterSec = failure.error === 'ratelimited' ? failure.retryAfterSec : undefined;
    return {
      answer: failureAnswer(failure.error, failure.retryAfterSec, 200),
      refused: { by: 'failNext', ...(retryAfterSec === undefined ? {} : { retryAfterSec }) },
    };
  }
  if (verdict.refused !== undefined) {
    const { answer, by, retryAfterSec } = verdict.refused;
    return { answer, refused: { by, ...(retryAfterSec === undefined ? {} : { retryAfterSec }) } };
  }
  return { answer: { status: 200, body: handle() } };
}

function describe(call: RecordedCall): string {
  const error = call.response.ok === false ? ` → ${String(call.response.error)}` : '';
  return `${call.method}${error}`;
}

/**
 * Starts a local stand-in of the Slack Web API on `http://host:port/api/` (and response URLs on
 * `/response/<id>`). Point a `WebClient` (or Bolt's `clientOptions.slackApiUrl`) at `url`.
 */
export async function startSlackStandIn(options: SlackStandInOptions = {}): Promise<SlackStandIn> {
  const world = new SlackWorld(options);
  const clock = options.now ?? (() => new Date());
  const now = () => clock().getTime();
  const limiter = new RateLimiter();
  const lifetimes = new Lifetimes();
  const rulebook = new Rulebook(world, limiter, lifetimes, resolveRules(options.rules));
  const calls: RecordedCall[] = [];
  const responseUrlCalls: RecordedCall[] = [];
  const listeners = new Set<(call: RecordedCall) => void>();
  /** response_url posts to leave unanswered (holdNextResponse) */
  const holds = new Set<{
    predicate: (args: Record<string, unknown>) => boolean;
    arrived: (args: Record<string, unknown>) => void;
  }>();
  const waiters = new Set<Waiter>();
  // Every call in arrival order, Web API and response_url alike, for waitFor.
  const all: RecordedCall[] = [];

  const record = (call: RecordedCall, list: RecordedCall[]): void => {
    list.push(call);
    all.push(call);
    for (const waiter of [...waiters]) {
      let matches: boolean;
      try {
        matches = waiter.predicate(call);
      } catch (error) {
        waiters.delete(waiter);
        clearTimeout(waiter.timer);
        waiter.reject(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (matches) {
        waiters.delete(waiter);
        clearTimeout(waiter.timer);
        waiter.resolve(call);
      }
    }
    for (const listener of [...listeners]) {
      try {
        listener(call);
      } catch (error) {
        // A faulty listener must not turn Slack's answer into a 500.
        process.emitWarning(`Slack stand-in onCall listener threw: ${String(error)}`);
      }
    }
  };

  const handleApi = async (req: IncomingMessage, url: URL, method: string): Promise<Answer> => {
    const at = now();
    const raw = await readBody(req);
    let parsed: ReturnType<typeof parseApiRequest>;
    try {
      parsed = parseApiRequest(raw, req.headers['content-type'], url.searchParams, req.headers.authorization);
    } catch {
      const json = (req.headers['content-type'] ?? '').includes('json');
      const answer: Answer = {
        status: 200,
        body: { ok: false, error: json ? 'invalid_json' : 'invalid_form_data' },
      };
      record({ method, args: { raw }, at, status: answer.status, response: answer.body }, calls);
      return answer;
    }
    const facts: CallFacts = {
      method,
      args: parsed.args,
      token: parsed.token,
      installation: world.installationFor(parsed.token),
      at,
    };
    const failure = world.takeFailure(method);
    const verdict = rulebook.before(facts, failure === undefined);
    if (failure?.error === 'ratelimited')
      rulebook.ratelimitedByTest(facts, verdict.workspace, failure.retryAfterSec);
    const { answer, refused } = verdictAnswer(failure, verdict, () =>
      handleMethod(method, {
        world,
        args: verdict.args,
        token: parsed.token,
        installation: facts.installation,
      }),
    );
    rulebook.after(facts, answer.body);
    record(
      {
        method,
        args: parsed.args,
        ...(parsed.token === undefined ? {} : { token: parsed.token }),
        at,
        status: answer.status,
        response: answer.body,
        workspace: verdict.workspace,
        ...(refused === undefined ? {} : { refused }),
        ...(verdict.duringRetryAfter ? { duringRetryAfter: true } : {}),
      },
      calls,
    );
    return answer;
  };

  const handleResponseUrl = async (req: IncomingMessage, path: string): Promise<Answer> => {
    const at = now();
    const raw = await readBody(req);
    let args: Record<string, unknown>;
    try {
      args = parseResponseUrlBody(raw, req.headers['content-type']);
    } catch {
      args = { raw };
    }
    const hold = [...holds].find((h) => h.predicate(args));
    if (hold) {
      holds.delete(hold);
      hold.arrived(args);
      return new Promise<Answer>(() => {});
    }
    const failure = world.takeFailure('response_url');
    let answer: Answer;
    let refused: RecordedCall['refused'];
    if (failure) {
      const notOk = failure.error === 'expired_url' || failure.error === 'used_url' ? 404 : 400;
      answer = failureAnswer(failure.error, failure.retryAfterSec, notOk);
      refused = { by: 'failNext' };
    } else {
      const refusal = rulebook.responseUrl(path, at);
      answer = refusal?.answer ?? { status: 200, body: { ok: true } };
      if (refusal !== undefined) refused = { by: refusal.by };
    }
    record(
      {
        method: 'response_url',
        args,
        path,
        at,
        status: answer.status,
        response: answer.body,
        ...(refused === undefined ? {} : { refused }),
      },
      responseUrlCalls,
    );
    return answer;
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in.local');
    const path = url.pathname;
    let work: Promise<Answer>;
    if (path.startsWith('/api/') && (req.method === 'POST' || req.method === 'GET')) {
      work = handleApi(req, url, decodeURIComponent(path.slice('/api/'.length)));
    } else if (path.startsWith('/response/') && req.method === 'POST') {
      work = handleResponseUrl(req, path);
    } else {
      req.resume();
      work = Promise.resolve({ status: 404, body: { ok: false, error: 'not_found' } });
    }
    work.then(
      (answer) => send(res, answer),
      (error: unknown) =>
        send(res, { status: 500, body: { ok: false, error: 'internal_error', detail: String(error) } }),
    );
  });

  const host = options.host ?? '127.0.0.1';
  const { port } = await listen(server, options.port ?? 0, host);
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url: `${origin}/api/`,
    origin,
    calls,
    responseUrlCalls,
    messages: world.messages,
    views: world.views,

    responseUrl(id = randomUUID()) {
      const path = `/response/${encodeURIComponent(id)}`;
      lifetimes.issueResponseUrl(path, now());
      return `${origin}${path}`;
    },

    get rules() {
      return rulebook.rules;
    },

    setRules(rules) {
      rulebook.rules = resolveRules(rules, rulebook.rules);
      return rulebook.rules;
    },

    issue(payload) {
      lifetimes.issue(payload, now());
    },

    triggerId() {
      const id = newTriggerId();
      lifetimes.issueTrigger(id, now());
      return id;
    },

    traffic() {
      return trafficOf(all);
    },

    grantOrgWorkspace(enterpriseId, teamId, granted = true) {
      world.grant(enterpriseId, teamId, granted);
    },

    waitFor(predicate, waitOptions: WaitForOptions = {}) {
      let found: RecordedCall | undefined;
      try {
        found = all.find(predicate);
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      if (found !== undefined) return Promise.resolve(found);
      const timeoutMs = waitOptions.timeoutMs ?? 5000;
      return new Promise<RecordedCall>((resolve, reject) => {
        const waiter: Waiter = {
          predicate,
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters.delete(waiter);
            const seen = all.length === 0 ? '(none)' : all.map(describe).join(', ');
            reject(
              new Error(`Slack stand-in: no matching call within ${timeoutMs} ms; recorded calls: ${seen}`),
            );
          }, timeoutMs),
        };
        waiters.add(waiter);
      });
    },

    onCall(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    failNext(method, error, failOptions) {
      world.failNext(method, error, failOptions);
    },

    holdNextResponse(predicate) {
      return new Promise((arrived) => {
        holds.add({ predicate, arrived });
      });
    },

    seedMessage(channel, message): StoredMessage {
      return world.addMessage({ channel, team: world.defaultInstallation.teamId, ...message });
    },

    changeChannel(id, change) {
      const channel = world.channel(id);
      if (change.archived !== undefined) channel.is_archived = change.archived;
      if (change.deleted !== undefined) channel.is_deleted = change.deleted;
      if (change.member !== undefined) channel.is_member = change.member;
      return { ...channel };
    },

    reset() {
      calls.length = 0;
      responseUrlCalls.length = 0;
      all.length = 0;
      holds.clear();
      world.reset();
      limiter.reset();
      lifetimes.reset();
    },

    close() {
      for (const waiter of waiters) {
        clearTimeout(waiter.timer);
        waiter.reject(new Error('Slack stand-in closed before a matching call arrived'));
      }
      waiters.clear();
      listeners.clear();
      holds.clear();
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
