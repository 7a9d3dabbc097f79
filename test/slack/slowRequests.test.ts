/**
 * Slow-trickle sockets on Slack's endpoint are not held: Slack gives up on a request after 3 s,
 * so a body still arriving then is answered 408 and its connection closed, with the web role's
 * default limits (whose request timeout is longer, for every other route). A hundred of them at
 * once are all closed, and the role answers meanwhile. The test waits on the sockets' closes.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const SOCKETS = 100;
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ worker: false });
});
afterAll(async () => {
  await h?.close();
});

/** Headers at once, then one byte of a 10 kB body every 50 ms: what the socket was answered, once closed. */
function trickle(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const body = 'x'.repeat(10_000);
    let received = '';
    let at = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
    });
    socket.on('error', () => {});
    socket.once('close', () => {
      clearInterval(timer);
      resolve(received);
    });
    socket.once('connect', () => {
      socket.write(
        `POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      timer = setInterval(() => {
        if (socket.writable && at < body.length) socket.write(body[at++]!);
      }, 50);
    });
  });
}

describe('slow-trickle requests to the Slack endpoint', () => {
  it(`closes ${SOCKETS} sockets trickling their bodies with 408, and serves others meanwhile`, async () => {
    const port = h.bot.port!;
    const answers = Array.from({ length: SOCKETS }, () => trickle(port));
    expect((await fetch(`${h.baseUrl}/healthz`)).status).toBe(200);
    expect((await h.command('help')).status).toBe(200);
    for (const answer of await Promise.all(answers)) expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});
