/**
 * The web role's HTTP server does not let slow or idle clients hold it: sockets dribbling their
 * headers (or their body) are closed with 408 at the headers (request) timeout, idle keep-alive
 * connections are closed, connections beyond the cap are closed at once — and other requests
 * are still served. Timeouts are tiny here; the test waits on the sockets' 'close' events.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const CAP = 50;
let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    worker: false,
    env: {
      HTTP_HEADERS_TIMEOUT_MS: '300',
      HTTP_REQUEST_TIMEOUT_MS: '400',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '100',
      HTTP_MAX_CONNECTIONS: String(CAP),
    },
  });
});

afterAll(async () => {
  await h?.close();
});

interface Slow {
  socket: Socket;
  /** everything the server wrote */
  received(): string;
  closed: Promise<void>;
}

/** A client that connects and then writes one byte of `text` every few milliseconds, forever. */
function dribble(port: number, text: string): Promise<Slow> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let at = 0;
    const timer = setInterval(() => {
      if (!socket.writable) return;
      socket.write(text[at % text.length]!);
      at += 1;
    }, 10);
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
    });
    socket.on('error', () => {});
    const closed = new Promise<void>((done) =>
      socket.once('close', () => {
        clearInterval(timer);
        done();
      }),
    );
    socket.once('connect', () => resolve({ socket, received: () => received, closed }));
    socket.once('error', reject);
  });
}

describe('web role limits', () => {
  it(`closes ${CAP} sockets dribbling headers, refuses connections past the cap, and still serves others`, async () => {
    const port = h.bot.port!;
    const headers = `POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1\r\n${'x-slow: y\r\n'.repeat(1000)}`;
    const slow = await Promise.all(Array.from({ length: CAP }, () => dribble(port, headers)));
    // The cap is reached: one more connection is closed without an answer.
    const extra = await dribble(port, headers);
    await extra.closed;
    expect(extra.received()).toBe('');

    await Promise.all(slow.map((s) => s.closed));
    for (const s of slow) expect(s.received()).toMatch(/^HTTP\/1\.1 408 /);

    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });

  it('closes a request whose body dribbles, at the request timeout', async () => {
    const port = h.bot.port!;
    const body = 'x'.repeat(10_000);
    const slow = await new Promise<Slow>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      let at = 0;
      let timer: NodeJS.Timeout | undefined;
      socket.on('data', (chunk) => {
        received += chunk.toString('utf8');
      });
      socket.on('error', () => {});
      const closed = new Promise<void>((done) =>
        socket.once('close', () => {
          clearInterval(timer);
          done();
        }),
      );
      socket.once('connect', () => {
        socket.write(
          `POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        timer = setInterval(() => {
          if (socket.writable && at < body.length) socket.write(body[at++]!);
        }, 10);
        resolve({ socket, received: () => received, closed });
      });
      socket.once('error', reject);
    });
    await slow.closed;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes an idle keep-alive connection after its answer', async () => {
    const port = h.bot.port!;
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
    });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('connect', () =>
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n'),
    );
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received.toLowerCase()).toContain('keep-alive: timeout=');
  });
});
