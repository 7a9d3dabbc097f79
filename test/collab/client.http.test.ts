/** The client against a tiny local server: what goes on the wire, and how answers are classified. */
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { type CollabClient, createCollabClient } from '../../src/collab/client.ts';
import { clientsPerTest, expectNoKey, failure } from './helpers.ts';
import { closedPortUrl, json, post } from './server.ts';

const KEY = 'sk_test_9f8e7d6c5b4a_secret';

const clients = clientsPerTest(KEY);
const { setup } = clients;

describe('requests on the wire', () => {
  it('sends the bearer key, JSON content type and accept on GET, POST and DELETE', async () => {
    const { server, client } = await setup((_req, res, r) =>
      json(res, r.method === 'POST' ? 201 : 200, post('p1')),
    );
    await client.getPost('p1');
    await client.resolvePost('p1');
    await client.unresolvePost('p1');
    expect(server.received.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v2/posts/p1',
      'POST /v2/posts/p1/resolution',
      'DELETE /v2/posts/p1/resolution',
    ]);
    for (const r of server.received) {
      expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers.accept).toBe('application/json');
    }
    expect(server.received[1]?.body).toBe('{}');
    expect(server.received[2]?.body).toBe('');
  });

  it('omits optional body fields that are undefined or empty strings', async () => {
    const { server, client } = await setup((_req, res) => json(res, 201, post('p1')));
    await client.createPost({ content_markdown: 'Hello', title: '', channel_id: undefined });
    await client.resolvePost('p1', { content_markdown: '', comment_id: 'c1' });
    expect(JSON.parse(server.received[0]?.body ?? '')).toEqual({ content_markdown: 'Hello' });
    expect(JSON.parse(server.received[1]?.body ?? '')).toEqual({ comment_id: 'c1' });
  });

  it('tolerates a trailing slash and a path prefix in the base url, and encodes path parameters', async () => {
    const { server, client } = await setup((_req, res) => json(res, 200, post('a/b')), { path: '/api/' });
    await client.getPost('a/b?c');
    expect(server.received[0]?.path).toBe('/api/v2/posts/a%2Fb%3Fc');
  });

  it('names query parameters from the wire table, joins roles, omits empty options', async () => {
    const page = { data: [], total_count: 0, next_cursor: null, prev_cursor: null };
    const { server, client } = await setup((_req, res) => json(res, 200, page));
    await client.listMembers({
      search: '',
      roles: ['admin', 'guest'],
      limit: 5,
      sort: 'created_at',
      direction: 'desc',
      after: 'cur1',
    });
    await client.listPosts({ channelId: 'ch1', before: 'cur0' });
    await client.listChannels({ name: 'gen' });
    await client.listMessages('t1');
    expect(server.received.map((r) => r.query)).toEqual([
      { roles: 'admin,guest', limit: '5', sort: 'created_at', direction: 'desc', after: 'cur1' },
      { channel_id: 'ch1', before: 'cur0' },
      { name: 'gen' },
      {},
    ]);
  });

  it('uses overridden query names', async () => {
    const page = { data: [] };
    const { server, client } = await setup((_req, res) => json(res, 200, page), {
      queryNames: { pageSize: 'per_page', search: 'search', after: 'cursor' },
    });
    await client.listMembers({ search: 'ann', limit: 10, after: 'x' });
    expect(server.received[0]?.query).toEqual({ search: 'ann', per_page: '10', cursor: 'x' });
  });

  it('accepts any 2xx where the spec names no status, and keeps unknown fields', async () => {
    const { client } = await setup((_req, res) => json(res, 200, { id: 'c1', content: 'hi', extra: 1 }));
    const comment = await client.createComment('p1', { content_markdown: 'hi', parent_id: '' });
    expect(comment).toMatchObject({ id: 'c1', extra: 1 });
  });
});

describe('input refused before any request', () => {
  const cases: Array<[string, (c: CollabClient) => Promise<unknown>]> = [
    ['page size above 50', (c) => c.listPosts({ limit: 51 })],
    ['page size 0', (c) => c.listChannels({ limit: 0 })],
    ['a sort key of another endpoint', (c) => c.listMessages('t1', { sort: 'name' as 'created_at' })],
    ['an unknown option', (c) => c.listPosts({ channel_id: 'x' } as never)],
    ['an unknown role', (c) => c.listMembers({ roles: ['owner' as 'admin'] })],
    ['an empty post content', (c) => c.createPost({ content_markdown: '' })],
    ['a thread without members', (c) => c.createThread({ member_ids: [] })],
    ['an empty post id', (c) => c.getPost('')],
    ['an empty thread id', (c) => c.createMessage('', { content_markdown: 'x' })],
    // `..` and `.` pass encodeURIComponent unchanged, and URLs normalise them away:
    // /v2/posts/../comments would be /v2/comments.
    ['a post id ..', (c) => c.createComment('..', { content_markdown: 'x' })],
    ['a post id .', (c) => c.getPost('.')],
    ['a post id .. to resolve', (c) => c.resolvePost('..')],
    ['a thread id ..', (c) => c.createMessage('..', { content_markdown: 'x' })],
    ['a thread id . to list', (c) => c.listMessages('.')],
  ];
  it.each(cases)('%s', async (_name, call) => {
    const { server, client } = await setup((_req, res) => json(res, 200, {}));
    const error = await failure(call(client));
    expect(error).toMatchObject({ kind: 'permanent', reason: 'badRequest' });
    expect(error.status).toBeUndefined();
    expect(server.received).toHaveLength(0);
  });

  it('refuses a bad iterator option when iteration starts', async () => {
    const { server, client } = await setup((_req, res) => json(res, 200, { data: [] }));
    const iterate = async () => {
      for await (const _ of client.allPosts({ limit: 99 })) {
        // nothing
      }
    };
    expect(await failure(iterate())).toMatchObject({ kind: 'permanent', reason: 'badRequest' });
    expect(server.received).toHaveLength(0);
  });
});

describe('statuses', () => {
  it('429 with Retry-After in seconds is rateLimited with the delay', async () => {
    const { client } = await setup((_req, res) =>
      json(res, 429, { message: 'slow down' }, { 'retry-after': '7' }),
    );
    const error = await failure(client.listPosts());
    expect(error).toMatchObject({
      kind: 'rateLimited',
      reason: 'rateLimited',
      status: 429,
      retryAfterMs: 7000,
    });
    expect(error.detail).toBe('slow down');
  });

  it('429 with Retry-After as an HTTP date gives a delay up to that date', async () => {
    const at = new Date(Date.now() + 120_000).toUTCString();
    const { client } = await setup((_req, res) => json(res, 429, {}, { 'retry-after': at }));
    const error = await failure(client.getPost('p1'));
    expect(error.kind).toBe('rateLimited');
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(120_000);
  });

  it('429 without Retry-After leaves the delay to the caller', async () => {
    const { client } = await setup((_req, res) => json(res, 429, {}));
    const error = await failure(client.createPost({ content_markdown: 'x' }));
    expect(error).toMatchObject({ kind: 'rateLimited', retryAfterMs: undefined });
  });

  it.each([
    [500, 'retryable', 'server'],
    [503, 'retryable', 'server'],
    [401, 'permanent', 'unauthorized'],
    [403, 'permanent', 'forbidden'],
    [404, 'permanent', 'notFound'],
    [409, 'permanent', 'badRequest'],
    [422, 'permanent', 'badRequest'],
  ] as const)('%i is %s (%s)', async (status, kind, reason) => {
    const { client } = await setup((_req, res) => json(res, status, { message: `m${status}` }));
    const error = await failure(client.createPost({ content_markdown: 'x' }));
    expect(error).toMatchObject({ kind, reason, status, detail: `m${status}`, operation: 'createPost' });
  });

  it.each([502, 504])(
    '%i on a write is ambiguous: a gateway gave up after the request reached it',
    async (status) => {
      const { client } = await setup((_req, res) => json(res, status, { message: 'upstream' }));
      expect(await failure(client.createPost({ content_markdown: 'x' }))).toMatchObject({
        kind: 'ambiguous',
        reason: 'server',
        status,
      });
      expect(await failure(client.createComment('p1', { content_markdown: 'x' }))).toMatchObject({
        kind: 'ambiguous',
        status,
      });
      expect(await failure(client.getPost('p1'))).toMatchObject({
        kind: 'retryable',
        reason: 'server',
        status,
      });
    },
  );

  it('422 with a plain text body shows the text', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(422, { 'content-type': 'text/plain' });
      res.end('  title is too long \n');
    });
    const error = await failure(client.createPost({ content_markdown: 'x' }));
    expect(error).toMatchObject({ kind: 'permanent', reason: 'badRequest', detail: 'title is too long' });
  });

  it('an HTML error page reads as words', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>');
    });
    const error = await failure(client.listChannels());
    expect(error).toMatchObject({
      kind: 'retryable',
      reason: 'server',
      status: 502,
      detail: '502 Bad Gateway nginx',
    });
  });

  it('an empty error body gives the status line only', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(404);
      res.end();
    });
    const error = await failure(client.getPost('nope'));
    expect(error).toMatchObject({ kind: 'permanent', reason: 'notFound', detail: undefined });
    expect(error.message).toBe('getPost failed with HTTP 404: not found');
  });

  it('a huge error body is read only in part', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('x'.repeat(2_000_000));
    });
    const error = await failure(client.getPost('p1'));
    expect(error.kind).toBe('retryable');
    expect(error.detail?.length).toBeLessThanOrEqual(300);
  });
});

describe('invalid 2xx answers', () => {
  it('a 201 with malformed JSON on a create is ambiguous (the write was applied)', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{"id": "p1", ');
    });
    const error = await failure(client.createPost({ content_markdown: 'x' }));
    expect(error).toMatchObject({ kind: 'ambiguous', reason: 'invalidResponse', status: 201 });
  });

  it('a 200 failing the schema on DELETE is ambiguous, with the issue path in detail', async () => {
    const { client } = await setup((_req, res) => json(res, 200, { title: 'no id' }));
    const error = await failure(client.unresolvePost('p1'));
    expect(error).toMatchObject({ kind: 'ambiguous', reason: 'invalidResponse' });
    expect(error.detail).toContain('id');
  });

  it('a 200 failing the schema on GET is retryable, naming the path of the issue', async () => {
    const { client } = await setup((_req, res) => json(res, 200, { data: [{ id: 'ok' }, { id: 5 }] }));
    const error = await failure(client.listPosts());
    expect(error).toMatchObject({ kind: 'retryable', reason: 'invalidResponse', status: 200 });
    expect(error.detail).toContain('data.1.id');
  });

  it('an HTML 200 (a captive portal) is retryable for GET', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>login</html>');
    });
    const error = await failure(client.listMembers());
    expect(error).toMatchObject({ kind: 'retryable', reason: 'invalidResponse' });
  });
});

describe('transport failures', () => {
  it('a refused connection is retryable: nothing was written', async () => {
    const client = clients.client({ baseUrl: await closedPortUrl() });
    const error = await failure(client.createPost({ content_markdown: 'x' }));
    expect(error).toMatchObject({ kind: 'retryable', reason: 'network', detail: 'ECONNREFUSED' });
    expectNoKey(error, KEY);
  });

  it('a socket destroyed after the request was read is ambiguous', async () => {
    const { client } = await setup((req) => req.socket.destroy());
    const error = await failure(client.createPost({ content_markdown: 'x' }));
    expect(error).toMatchObject({ kind: 'ambiguous', reason: 'reset' });
    expectNoKey(error, KEY);
  });

  it('a socket destroyed on a GET is classified ambiguous as well (honest; the queue decides)', async () => {
    const { client } = await setup((req) => req.socket.destroy());
    const error = await failure(client.listPosts());
    expect(error.kind).toBe('ambiguous');
  });

  it('no answer within headersTimeout is an ambiguous timeout', async () => {
    const { client } = await setup(
      () => {
        // never answers
      },
      { timeouts: { headersMs: 200 } },
    );
    const error = await failure(client.createThread({ member_ids: ['m1'] }));
    expect(error).toMatchObject({ kind: 'ambiguous', reason: 'timeout', detail: 'UND_ERR_HEADERS_TIMEOUT' });
  });

  it('a body that stalls after a 2xx status is an ambiguous timeout', async () => {
    const { client } = await setup(
      (_req, res) => {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.write('{"id":');
      },
      { timeouts: { bodyMs: 200 } },
    );
    const error = await failure(client.createMessage('t1', { content_markdown: 'x' }));
    expect(error).toMatchObject({ kind: 'ambiguous', reason: 'timeout', detail: 'UND_ERR_BODY_TIMEOUT' });
  });

  it('an abort after the request was written is ambiguous', async () => {
    const { server, client } = await setup(() => {
      // never answers
    });
    const controller = new AbortController();
    const pending = failure(client.createPost({ content_markdown: 'x' }, { signal: controller.signal }));
    await server.nextRequest();
    controller.abort();
    expect(await pending).toMatchObject({ kind: 'ambiguous' });
  });

  it('an abort before anything was sent is retryable', async () => {
    const { server, client } = await setup((_req, res) => json(res, 201, post('p1')));
    const error = await failure(
      client.createPost({ content_markdown: 'x' }, { signal: AbortSignal.abort() }),
    );
    expect(error).toMatchObject({ kind: 'retryable' });
    expect(server.received).toHaveLength(0);
  });

  it('with a shared dispatcher: refused is retryable, reset is ambiguous, and the dispatcher stays open', async () => {
    const agent = new Agent({ connections: 2 });
    try {
      const refused = createCollabClient({ baseUrl: await closedPortUrl(), apiKey: KEY, dispatcher: agent });
      expect(await failure(refused.getPost('p1'))).toMatchObject({ kind: 'retryable', reason: 'network' });
      await refused.close();

      const { client } = await setup(
        (req, res, r) => (r.path.endsWith('/p1') ? json(res, 200, post('p1')) : req.socket.destroy()),
        { dispatcher: agent },
      );
      expect(await failure(client.createPost({ content_markdown: 'x' }))).toMatchObject({
        kind: 'ambiguous',
      });
      await client.close();
      expect(await client.getPost('p1')).toMatchObject({ id: 'p1' });
    } finally {
      await agent.close();
    }
  });
});

describe('the API key never leaks', () => {
  it('not even when the service echoes it back in an error body', async () => {
    const { client } = await setup((req, res) => {
      json(res, 401, { message: `invalid key ${req.headers.authorization ?? ''}` });
    });
    const error = await failure(client.getPost('p1'));
    expect(error).toMatchObject({ kind: 'permanent', reason: 'unauthorized' });
    expect(error.detail).toContain('[redacted]');
    expectNoKey(error, KEY);
  });

  it('nor in plain text or invalid-response errors, nor in the metrics events', async () => {
    const events: unknown[] = [];
    const { client } = await setup(
      (req, res, r) => {
        if (r.method === 'GET') {
          res.writeHead(400, { 'content-type': 'text/plain' });
          res.end(`bad ${req.headers.authorization ?? ''}`);
        } else json(res, 201, { id: 7, key: req.headers.authorization });
      },
      { onResponse: (event) => events.push(event) },
    );
    const first = await failure(client.listPosts());
    const second = await failure(client.createPost({ content_markdown: 'x' }));
    expectNoKey(first, KEY);
    expectNoKey(second, KEY);
    expect(JSON.stringify(events)).not.toContain(KEY);
  });
});

describe('metrics hook', () => {
  it('reports each exchange with operation, method, status and error kind', async () => {
    const events: Array<{ operation: string; method: string; status: number | undefined; error?: string }> =
      [];
    const { client } = await setup(
      (_req, res, r) => (r.method === 'GET' ? json(res, 200, post('p1')) : json(res, 503, {})),
      {
        onResponse: ({ operation, method, status, error, durationMs }) => {
          expect(durationMs).toBeGreaterThanOrEqual(0);
          events.push(error ? { operation, method, status, error } : { operation, method, status });
        },
      },
    );
    await client.getPost('p1');
    await failure(client.createPost({ content_markdown: 'x' }));
    expect(events).toEqual([
      { operation: 'getPost', method: 'GET', status: 200 },
      { operation: 'createPost', method: 'POST', status: 503, error: 'retryable' },
    ]);
  });

  it('a throwing hook does not change the outcome', async () => {
    const { client } = await setup((_req, res) => json(res, 200, post('p1')), {
      onResponse: () => {
        throw new Error('metrics down');
      },
    });
    expect(await client.getPost('p1')).toMatchObject({ id: 'p1' });
  });
});

describe('configuration', () => {
  it('refuses a malformed base url or an empty key with a TypeError that does not quote the key', () => {
    expect(() => createCollabClient({ baseUrl: 'not a url', apiKey: KEY })).toThrow(TypeError);
    expect(() => createCollabClient({ baseUrl: 'ftp://x', apiKey: KEY })).toThrow(TypeError);
    expect(() => createCollabClient({ baseUrl: 'http://x', apiKey: '' })).toThrow(TypeError);
    expect(() => createCollabClient({ baseUrl: 'http://x', apiKey: KEY, queryNames: { sort: '' } })).toThrow(
      TypeError,
    );
  });

  it('close() is idempotent', async () => {
    const { client } = await setup((_req, res) => json(res, 200, post('p1')));
    await client.getPost('p1');
    await Promise.all([client.close(), client.close()]);
  });
});
