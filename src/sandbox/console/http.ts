/** The console server's plumbing: JSON answers, JSON bodies checked by a schema, the page's files. */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { readBody } from '../slack/request.ts';

/** A request the console cannot do as asked: answered 400 with the reason. */
export class BadRequest extends Error {}

const PUBLIC_DIR = join(dirname(fileURLToPath(import.meta.url)), 'public');
const STATIC_FILES: Record<string, string> = {
  '/': 'index.html',
  '/index.html': 'index.html',
  '/app.js': 'app.js',
  '/blockkit.js': 'blockkit.js',
  '/style.css': 'style.css',
  '/workflows.js': 'workflows.js',
};
export const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

export function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

export async function readJson<S extends z.ZodType>(req: IncomingMessage, schema: S): Promise<z.infer<S>> {
  const raw = await readBody(req);
  let value: unknown;
  try {
    value = JSON.parse(raw) as unknown;
  } catch {
    throw new BadRequest('malformed JSON');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new BadRequest(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return parsed.data;
}

/** Serves one of the page's files; false when `path` is not one. */
export async function serveStatic(path: string, res: ServerResponse): Promise<boolean> {
  const file = STATIC_FILES[path];
  if (file === undefined) return false;
  const body = await readFile(join(PUBLIC_DIR, file));
  res.writeHead(200, {
    'content-type': TYPES[file.split('.').pop() ?? ''] ?? 'text/plain',
    'cache-control': 'no-cache',
  });
  res.end(body);
  return true;
}
