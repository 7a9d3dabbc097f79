/** Low-level request and response helpers on node:http. */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './http-error.ts';

export const MAX_BODY_BYTES = 1024 * 1024;
export const JSON_TYPE = 'application/json; charset=utf-8';

export async function readBody(req: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > limit) throw new HttpError(413, `Body larger than ${limit} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Parsed JSON, else the raw text; undefined when empty. */
export function bodyForRecord(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = name === 'authorization' ? 'Bearer ***' : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export interface RawAnswer {
  status: number;
  body: string;
  contentType: string;
  headers?: Record<string, string>;
}

export function sendRaw(res: ServerResponse, answer: RawAnswer): void {
  if (res.destroyed || res.headersSent) return;
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  if (answer.status === 204 || answer.status === 304) {
    res.end();
    return;
  }
  res.setHeader('content-type', answer.contentType);
  res.setHeader('content-length', Buffer.byteLength(answer.body));
  res.end(answer.body);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): void {
  sendRaw(res, {
    status,
    body: JSON.stringify(body),
    contentType: JSON_TYPE,
    ...(headers === undefined ? {} : { headers }),
  });
}

/** Guesses a content type for a fault's raw body: JSON if it parses, else plain text. */
export function guessContentType(body: string): string {
  try {
    JSON.parse(body);
    return JSON_TYPE;
  } catch {
    return 'text/plain; charset=utf-8';
  }
}
