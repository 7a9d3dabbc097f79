/**
 * The outbound guard: service URLs entered by workspace admins must resolve to public
 * addresses, checked when entered and again at every connection (so a name that resolves
 * elsewhere later is refused), with the operator's allow-list for on-premises services. Names are
 * resolved by a stub: no traffic leaves the machine; the only server is on loopback.
 */
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isCollabError } from '../../src/collab/errors.ts';
import { createHttp } from '../../src/collab/http.ts';
import { nonPublicKind, outboundGuard, type Resolve } from '../../src/collab/outbound.ts';

/** A resolver answering from a table, each name's answers in turn (the last one repeats). */
function stubResolver(table: Record<string, string[][]>): Resolve & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (host: string): Promise<LookupAddress[]> => {
    const turns = table[host];
    if (!turns) throw Object.assign(new Error(`stub: ${host} unknown`), { code: 'ENOTFOUND' });
    const answer = turns[Math.min(asked.filter((h) => h === host).length, turns.length - 1)]!;
    asked.push(host);
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

describe('nonPublicKind', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.255.0.9', 'a loopback address'],
    ['10.0.0.5', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.169.254', 'a cloud metadata address'],
    ['169.254.1.1', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['100.100.100.200', 'a carrier-grade NAT address'],
    ['0.0.0.0', 'an unspecified address'],
    ['224.0.0.1', 'a multicast address'],
    ['255.255.255.255', 'a reserved address'],
    ['::1', 'a loopback address'],
    ['::', 'an unspecified address'],
    ['fe80::1', 'a link-local address'],
    ['fc00::1', 'a unique-local address'],
    ['fd00:ec2::254', 'a unique-local address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:7f00:1', 'a loopback address'],
    ['::ffff:a9fe:a9fe', 'a cloud metadata address'],
    ['::ffff:10.1.2.3', 'a private address'],
    ['2002:7f00:1::', 'a loopback address'],
    ['64:ff9b::a00:5', 'a NAT64 address'],
    ['::127.0.0.1', 'a reserved address'],
  ])('%s is %s', (address, kind) => {
    expect(nonPublicKind(address)).toBe(kind);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(nonPublicKind(address)).toBeUndefined();
    },
  );
});

describe('outboundGuard.check (when an admin enters the URL)', () => {
  const resolve = stubResolver({
    'collab.example.com': [['93.184.216.34']],
    'internal.example.com': [['10.0.0.5']],
    'mixed.example.com': [['93.184.216.34', '192.168.0.3']],
    'v6.example.com': [['fe80::1']],
    'onprem.corp': [['10.20.0.7']],
  });
  const guard = outboundGuard({ resolve, allowed: ['onprem.corp', '172.20.0.0/16', 'fd12::/16'] });

  it('accepts a name resolving to public addresses only', async () => {
    expect(await guard.check('https://collab.example.com')).toBeUndefined();
  });

  it.each([
    ['https://169.254.169.254', /169\.254\.169\.254 is a cloud metadata address/],
    ['https://10.0.0.5', /private address/],
    ['https://127.0.0.1', /loopback/],
    ['https://[fe80::1]', /link-local/],
    ['https://[::ffff:169.254.169.254]', /metadata/],
    ['https://0.0.0.0', /unspecified/],
    ['https://100.64.1.1', /carrier-grade NAT/],
    ['https://metadata.google.internal', /cloud metadata name/],
    ['https://localhost:8443', /this machine/],
    ['https://api.localhost', /this machine/],
    ['https://internal.example.com', /internal\.example\.com resolves to 10\.0\.0\.5, a private address/],
    ['https://mixed.example.com', /192\.168\.0\.3, a private address/],
    ['https://v6.example.com', /link-local/],
  ])('refuses %s with a clear message', async (url, message) => {
    const refused = await guard.check(url);
    expect(refused).toMatch(message);
    expect(refused).toMatch(/public addresses.*COLLAB_ALLOWED_HOSTS/);
  });

  it('accepts what the operator allows: a host name, a CIDR (v4 and v6)', async () => {
    expect(await guard.check('https://onprem.corp/api')).toBeUndefined();
    expect(await guard.check('https://172.20.4.4')).toBeUndefined();
    expect(await guard.check('https://[fd12::8]')).toBeUndefined();
    expect(await guard.check('https://172.21.4.4')).toMatch(/private/);
  });

  it('says when a name does not resolve, or not in time', async () => {
    expect(await guard.check('https://nowhere.example.com')).toMatch(/could not be resolved/);
    const silent = outboundGuard({ resolve: () => new Promise(() => {}) });
    expect(await silent.check('https://slow.example.com', { timeoutMs: 20 })).toMatch(
      /could not be resolved in time/,
    );
  });
});

describe('outboundGuard at every connection (the collab client connection layer)', () => {
  let server: Server;
  let port: number;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
  });

  const call = async (baseUrl: string, guard: ReturnType<typeof outboundGuard>) => {
    const http = createHttp({ baseUrl, apiKey: 'test-key-outbound', guard });
    try {
      return await http.send({
        operation: 'listChannels',
        method: 'GET',
        path: '/v2/channels',
        schema: z.unknown(),
      });
    } finally {
      await http.close();
    }
  };

  it('a name that resolved to a public address when entered, and to loopback at connection, is refused (DNS rebinding)', async () => {
    const resolve = stubResolver({ 'rebind.example.com': [['93.184.216.34'], ['127.0.0.1']] });
    const guard = outboundGuard({ resolve });
    const url = `http://rebind.example.com:${port}`;
    expect(await guard.check(url)).toBeUndefined();
    const before = connections;
    const error = await call(url, guard).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isCollabError(error) && error.reason).toBe('network');
    expect(JSON.stringify(error)).not.toContain('test-key-outbound');
    expect(connections).toBe(before);
    expect(resolve.asked).toEqual(['rebind.example.com', 'rebind.example.com']);
  });

  it('an address literal is refused without connecting', async () => {
    const before = connections;
    const error = await call(`http://127.0.0.1:${port}`, outboundGuard({ resolve: stubResolver({}) })).catch(
      (e: unknown) => e,
    );
    expect(isCollabError(error) && error.reason).toBe('network');
    expect(connections).toBe(before);
  });

  it('connects to the address it checked: an allowed CIDR reaches the service under its name', async () => {
    const resolve = stubResolver({ 'onprem.example.com': [['127.0.0.1']] });
    const before = connections;
    expect(
      await call(`http://onprem.example.com:${port}`, outboundGuard({ resolve, allowed: ['127.0.0.0/8'] })),
    ).toEqual({ ok: true });
    expect(connections).toBe(before + 1);
    expect(
      await call(`http://127.0.0.1:${port}`, outboundGuard({ resolve, allowed: ['127.0.0.1'] })),
    ).toEqual({
      ok: true,
    });
  });
});
