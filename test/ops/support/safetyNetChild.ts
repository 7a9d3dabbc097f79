/**
 * A process with the safety net installed and an HTTP server, for test/ops/processSafety.test.ts:
 * `rejection` leaves a promise rejection unhandled, `exception` throws outside any handler.
 * It prints `listening <port>` once serving and `stopped` when its stop ran.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../../../src/logger.ts';
import { installSafetyNet } from '../../../src/ops/processSafety.ts';

const logger = createLogger({ level: 'info' });
const server = createServer((_req, res) => res.end('still here'));
server.listen(0, '127.0.0.1', () => {
  installSafetyNet(logger, async () => {
    await new Promise((resolve) => server.close(resolve));
    process.stdout.write('stopped\n');
  });
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
  const mode = process.argv[2];
  if (mode === 'rejection') void Promise.reject(new Error('a rejection nobody handled'));
  if (mode === 'exception')
    setImmediate(() => {
      throw new Error('thrown outside any handler');
    });
});
