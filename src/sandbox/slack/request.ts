import type { IncomingMessage } from 'node:http';

/** Fields Slack receives as JSON-encoded strings in form bodies. */
const JSON_FIELDS = new Set([
  'blocks',
  'attachments',
  'view',
  'unfurls',
  'outputs',
  'metadata',
  'user_auth_blocks',
  'options',
  'option_groups',
]);

const MAX_BODY_BYTES = 5 * 1024 * 1024;

export interface ParsedRequest {
  args: Record<string, unknown>;
  token?: string;
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJsonField(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return value;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return value;
  }
}

function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  return match?.[1]?.trim();
}

/**
 * Parses a Web API request as Slack does: query string, then a form or JSON body; the token from
 * `Authorization: Bearer` or a `token` field (moved out of the args).
 */
export function parseApiRequest(
  rawBody: string,
  contentType: string | undefined,
  search: URLSearchParams,
  authorization: string | undefined,
): ParsedRequest {
  const args: Record<string, unknown> = Object.fromEntries(search.entries());
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (rawBody.length > 0) {
    if (type === 'application/json') {
      const parsed = JSON.parse(rawBody) as unknown;
      if (!isRecord(parsed)) throw new Error('JSON body must be an object');
      Object.assign(args, parsed);
    } else {
      Object.assign(args, Object.fromEntries(new URLSearchParams(rawBody).entries()));
    }
  }
  for (const key of Object.keys(args)) {
    if (JSON_FIELDS.has(key)) args[key] = parseJsonField(args[key]);
  }
  let token = bearer(authorization);
  if (typeof args.token === 'string') {
    token ??= args.token;
    delete args.token;
  }
  return token === undefined ? { args } : { args, token };
}

/** Parses a `response_url` body: JSON (what Bolt's `respond` sends) or a form with `payload`. */
export function parseResponseUrlBody(
  rawBody: string,
  contentType: string | undefined,
): Record<string, unknown> {
  if (rawBody.length === 0) return {};
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/x-www-form-urlencoded') {
    const payload = new URLSearchParams(rawBody).get('payload');
    const parsed = payload === null ? {} : (JSON.parse(payload) as unknown);
    return isRecord(parsed) ? parsed : { payload: parsed };
  }
  const parsed = JSON.parse(rawBody) as unknown;
  return isRecord(parsed) ? parsed : { body: parsed };
}

/** Reads a string argument; form bodies only hold strings, JSON bodies may hold numbers. */
export function stringArg(args: Record<string, unknown>, key: string): string | undefined {
  const value = args[key];
  if (typeof value === 'string') return value.length > 0 ? value : undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

export function arrayArg(args: Record<string, unknown>, key: string): unknown[] | undefined {
  const value = args[key];
  return Array.isArray(value) ? value : undefined;
}

export function recordArg(args: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const value = args[key];
  return isRecord(value) ? value : undefined;
}

export { isRecord };
