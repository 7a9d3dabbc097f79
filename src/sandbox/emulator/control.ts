/**
 * The control API under `/_emulator/`: no authentication, for local tooling only (the fault
 * suite, the sandbox console). Its requests are not recorded in `received` and never faulted.
 *
 *   GET    /_emulator                 routes, query names, organizations count
 *   GET    /_emulator/state[?key=]    state of the first organization (or of `key`)
 *   GET    /_emulator/requests[?route=]   received requests (optionally of one route)
 *   DELETE /_emulator/requests        forget received requests
 *   GET    /_emulator/faults          active rules and standing latencies
 *   POST   /_emulator/faults          body: a fault rule (`times: "Infinity"` for Infinity) → 201 { id }
 *   DELETE /_emulator/faults          clear rules and latencies
 *   DELETE /_emulator/faults/{id}     remove one rule
 *   POST   /_emulator/latency         body: { ms, route? } standing latency (0 removes)
 *   POST   /_emulator/reset           clear faults and received, reseed
 *   POST   /_emulator/act             body: { as: memberId, op, args, key? } act as a person
 *
 * `act` args: an array of the helper's positional arguments (`["pst_…", { content_markdown }]`),
 * or an object: the body, with `post_id` / `thread_id` for the ops that need one.
 */
import { z } from 'zod';
import type { QueryNames } from '../../collab/wire.ts';
import type { Actor } from './actor.ts';
import {
  type CreateCommentBody,
  type CreateMessageBody,
  type CreatePostBody,
  type CreateThreadBody,
  describeIssues,
  type ResolvePostBody,
} from './bodies.ts';
import { FaultRuleSchema, type Faults } from './faults.ts';
import { badRequest, HttpError, notFound } from './http-error.ts';
import { Router } from './router.ts';
import type { OrgState } from './state.ts';
import type { ReceivedRequest } from './types.ts';

export interface ControlDeps {
  /** The organization of `key`, or the first; throws a 404 HttpError for an unknown key. */
  orgFor(key: string | undefined): OrgState;
  organizations: number;
  faults: Faults;
  received: ReceivedRequest[];
  reset(): void;
  apiRoutes: string[];
  queryNames: QueryNames;
}

export interface ControlRequest {
  query: URLSearchParams;
  rawBody: Buffer;
  params: Record<string, string>;
}

export interface ControlResult {
  status: number;
  body: unknown;
}

type ControlHandler = (deps: ControlDeps, request: ControlRequest) => ControlResult;

export const ACT_OPS = [
  'createPost',
  'createComment',
  'resolvePost',
  'unresolvePost',
  'createMessage',
  'createThread',
] as const;

const ActRequest = z.object({
  as: z.string().min(1),
  op: z.enum(ACT_OPS),
  args: z.unknown().optional(),
  key: z.string().min(1).optional(),
});

const LatencyRequest = z.object({
  ms: z.number().int().min(0),
  route: z.string().min(1).optional(),
});

function jsonBody(raw: Buffer): unknown {
  if (raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('Malformed JSON body');
  }
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(describeIssues(result.error));
  return result.data;
}

/** Splits `args` into the target id (for ops that take one) and the body. */
function splitArgs(args: unknown, idField: 'post_id' | 'thread_id'): { id: string; body: unknown } {
  let id: unknown;
  let body: unknown;
  if (Array.isArray(args)) {
    [id, body] = args;
  } else if (args !== null && typeof args === 'object') {
    const { [idField]: found, ...rest } = args as Record<string, unknown>;
    id = found;
    body = rest;
  }
  if (typeof id !== 'string' || id === '') throw badRequest(`args: ${idField} (a string) is required`);
  return { id, body: body ?? {} };
}

function firstArg(args: unknown): unknown {
  return (Array.isArray(args) ? args[0] : args) ?? {};
}

/**
 * The bodies are cast to the helpers' input types unchecked on purpose: every act-as helper
 * validates its input at run time with the routes' schemas (422 on failure).
 */
function act(actor: Actor, op: (typeof ACT_OPS)[number], args: unknown): ControlResult {
  switch (op) {
    case 'createPost':
      return { status: 201, body: actor.createPost(firstArg(args) as CreatePostBody) };
    case 'createThread':
      return { status: 201, body: actor.createThread(firstArg(args) as CreateThreadBody) };
    case 'createComment': {
      const { id, body } = splitArgs(args, 'post_id');
      return { status: 201, body: actor.createComment(id, body as CreateCommentBody) };
    }
    case 'resolvePost': {
      const { id, body } = splitArgs(args, 'post_id');
      return { status: 201, body: actor.resolvePost(id, body as ResolvePostBody) };
    }
    case 'unresolvePost':
      return { status: 200, body: actor.unresolvePost(splitArgs(args, 'post_id').id) };
    case 'createMessage': {
      const { id, body } = splitArgs(args, 'thread_id');
      return { status: 201, body: actor.createMessage(id, body as CreateMessageBody) };
    }
  }
}

const ok = (body: unknown): ControlResult => ({ status: 200, body });

const ROUTES = new Router<ControlHandler>([
  {
    method: 'GET',
    template: '/_emulator',
    handler: (deps) =>
      ok({ routes: deps.apiRoutes, queryNames: deps.queryNames, organizations: deps.organizations }),
  },
  {
    method: 'GET',
    template: '/_emulator/state',
    handler: (deps, req) => ok(deps.orgFor(req.query.get('key') ?? undefined).snapshot()),
  },
  {
    method: 'GET',
    template: '/_emulator/requests',
    handler: (deps, req) => {
      const route = req.query.get('route');
      return ok(route === null ? deps.received : deps.received.filter((request) => request.route === route));
    },
  },
  {
    method: 'DELETE',
    template: '/_emulator/requests',
    handler: (deps) => {
      deps.received.length = 0;
      return ok({ ok: true });
    },
  },
  {
    method: 'GET',
    template: '/_emulator/faults',
    handler: (deps) => ok({ rules: deps.faults.list(), latency: deps.faults.latencies() }),
  },
  {
    method: 'POST',
    template: '/_emulator/faults',
    handler: (deps, req) => {
      const rule = parse(FaultRuleSchema, jsonBody(req.rawBody));
      return { status: 201, body: { id: deps.faults.add(rule) } };
    },
  },
  {
    method: 'DELETE',
    template: '/_emulator/faults',
    handler: (deps) => {
      deps.faults.clear();
      return ok({ ok: true });
    },
  },
  {
    method: 'DELETE',
    template: '/_emulator/faults/{id}',
    handler: (deps, req) => {
      const id = req.params.id ?? '';
      if (!deps.faults.remove(id)) throw notFound(`No fault rule ${id}`);
      return ok({ ok: true });
    },
  },
  {
    method: 'POST',
    template: '/_emulator/latency',
    handler: (deps, req) => {
      const { ms, route } = parse(LatencyRequest, jsonBody(req.rawBody));
      deps.faults.setLatency(ms, route);
      return ok({ latency: deps.faults.latencies() });
    },
  },
  {
    method: 'POST',
    template: '/_emulator/reset',
    handler: (deps) => {
      deps.reset();
      return ok({ ok: true });
    },
  },
  {
    method: 'POST',
    template: '/_emulator/act',
    handler: (deps, req) => {
      const request = parse(ActRequest, jsonBody(req.rawBody));
      return act(deps.orgFor(request.key).actAs(request.as), request.op, request.args);
    },
  },
]);

export function handleControl(
  deps: ControlDeps,
  method: string,
  path: string,
  query: URLSearchParams,
  rawBody: Buffer,
): ControlResult {
  const lookup = ROUTES.lookup(method, path);
  if (lookup.kind === 'notFound') return { status: 404, body: { message: 'Not found' } };
  if (lookup.kind === 'methodNotAllowed') return { status: 405, body: { message: 'Method not allowed' } };
  try {
    return lookup.match.handler(deps, { query, rawBody, params: lookup.match.params });
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, body: { message: error.message } };
    if (error instanceof z.ZodError) return { status: 400, body: { message: describeIssues(error) } };
    return {
      status: 500,
      body: { message: error instanceof Error ? error.message : 'Internal emulator error' },
    };
  }
}
