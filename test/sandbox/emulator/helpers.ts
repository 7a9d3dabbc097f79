/** Test helpers: plain fetch against a running emulator, and a manual clock. */
import { afterEach, beforeEach } from 'vitest';
import { type Emulator, startEmulator } from '../../../src/sandbox/emulator/index.ts';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body; undefined when the body is not JSON. */
  json: unknown;
}

export interface CallOptions {
  query?: Record<string, string | number>;
  body?: unknown;
  /** A raw body sent as is (with `contentType`, if given). */
  rawBody?: string;
  contentType?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** API key; `null` sends no Authorization header. Default: the emulator's first key. */
  key?: string | null;
}

export async function call(
  emu: Emulator,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const url = new URL(emu.url + path);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, String(value));
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  const key = options.key === undefined ? emu.apiKey : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && options.contentType !== null) {
    headers['content-type'] = options.contentType ?? 'application/json';
  }
  const response = await fetch(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const get = (emu: Emulator, path: string, options?: CallOptions) => call(emu, 'GET', path, options);
export const post = (emu: Emulator, path: string, body: unknown, options?: CallOptions) =>
  call(emu, 'POST', path, { ...options, body });
export const del = (emu: Emulator, path: string, options?: CallOptions) => call(emu, 'DELETE', path, options);

/** A clock that only moves when told to. */
export function manualClock(start = '2025-03-03T09:00:00.000Z') {
  let current = Date.parse(start);
  return {
    now: () => new Date(current),
    tick: (ms = 1_000) => {
      current += ms;
    },
  };
}

export type ManualClock = ReturnType<typeof manualClock>;

/** A fresh emulator on a manual clock for each test (handed to `use`), closed after it. */
export function useClockedEmulator(use: (emu: Emulator, clock: ManualClock) => void): void {
  let emu: Emulator | undefined;
  beforeEach(async () => {
    const clock = manualClock();
    emu = await startEmulator({ now: clock.now });
    use(emu, clock);
  });
  afterEach(() => emu?.close());
}

/** The message of the service's error body `{"error": {"code", "message"}}` (or a control API `{ message }`). */
export function messageOf(answer: Answer): string {
  const json = answer.json as { error?: { message?: unknown }; message?: unknown } | undefined;
  const message = json?.error?.message ?? json?.message;
  if (typeof message === 'string') return message;
  throw new Error(`no message in ${answer.status} ${answer.text}`);
}

export function memberIdByEmail(emu: Emulator, email: string, apiKey?: string): string {
  for (const member of emu.org(apiKey).members.values()) if (member.user.email === email) return member.id;
  throw new Error(`no member ${email}`);
}

export function channelIdByName(emu: Emulator, name: string, apiKey?: string): string {
  for (const channel of emu.org(apiKey).channels.values()) if (channel.name === name) return channel.id;
  throw new Error(`no channel ${name}`);
}

export function firstThreadId(emu: Emulator): string {
  const thread = emu.org().threads.values().next();
  if (thread.done) throw new Error('no thread');
  return thread.value.id;
}
