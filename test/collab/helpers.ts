import { inspect } from 'node:util';
import { afterEach, expect } from 'vitest';
import { type CollabClient, type CollabClientOptions, createCollabClient } from '../../src/collab/client.ts';
import { type CollabError, isCollabError } from '../../src/collab/errors.ts';
import { type Answer, startServer, type TestServer } from './server.ts';

type ClientOptions = Partial<CollabClientOptions>;

export interface ClientsPerTest {
  /**
   * A tiny local server answering `answer`, and a client of it with `apiKey` (`options` override
   * its defaults; `path` is appended to the server's url for the base url).
   */
  setup(
    answer: Answer,
    options?: ClientOptions & { path?: string },
  ): Promise<{ server: TestServer; client: CollabClient }>;
  /** A client of some other base url (a closed port, say). */
  client(options: ClientOptions & { baseUrl: string }): CollabClient;
}

/** Clients and servers made by a test, with `apiKey`: all closed after the test. */
export function clientsPerTest(apiKey: string): ClientsPerTest {
  let servers: TestServer[] = [];
  let clients: CollabClient[] = [];
  afterEach(async () => {
    for (const client of clients) await client.close();
    for (const server of servers) await server.close();
    clients = [];
    servers = [];
  });
  const client = (options: ClientOptions & { baseUrl: string }) => {
    const made = createCollabClient({ apiKey, ...options });
    clients.push(made);
    return made;
  };
  return {
    async setup(answer, { path = '', ...options } = {}) {
      const server = await startServer(answer);
      servers.push(server);
      return { server, client: client({ baseUrl: `${server.url}${path}`, ...options }) };
    },
    client,
  };
}

/** The CollabError a promise rejects with (fails the test if it resolves or throws anything else). */
export async function failure(promise: Promise<unknown>): Promise<CollabError> {
  try {
    await promise;
  } catch (error) {
    if (isCollabError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** Every way an error may be printed or logged, as one text. */
export function everyRendering(error: unknown): string {
  const parts = [String(error), inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true })];
  try {
    parts.push(JSON.stringify(error));
  } catch {
    // not serialisable: the other renderings still count
  }
  if (error instanceof Error) {
    parts.push(error.message, error.stack ?? '', inspect(error.cause, { depth: Number.POSITIVE_INFINITY }));
  }
  return parts.join('\n');
}

export function expectNoKey(error: unknown, key: string): void {
  expect(everyRendering(error)).not.toContain(key);
}
