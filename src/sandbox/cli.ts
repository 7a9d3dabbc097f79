/**
 * `npm run emulator`: runs the collaboration API emulator on PORT (default 4010), prints one
 * line with its URL and API key, and stops cleanly on SIGINT/SIGTERM.
 *
 * Optional: EMULATOR_HOST (default 127.0.0.1), EMULATOR_API_KEYS (comma-separated; default one
 * generated key), EMULATOR_SEED=false for an empty organization.
 */
import { startEmulator } from './emulator/index.ts';

const DEFAULT_PORT = 4010;

function portFrom(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(value)}`);
  }
  return port;
}

async function main(): Promise<void> {
  const apiKeys = process.env.EMULATOR_API_KEYS?.split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  const emulator = await startEmulator({
    port: portFrom(process.env.PORT),
    host: process.env.EMULATOR_HOST ?? '127.0.0.1',
    seed: process.env.EMULATOR_SEED !== 'false',
    ...(apiKeys?.length ? { apiKeys } : {}),
  });
  process.stdout.write(
    `Collaboration API emulator on ${emulator.url}/v2 — API key: ${emulator.apiKey} ` +
      `(COLLAB_API_URL=${emulator.url}, control API ${emulator.url}/_emulator)\n`,
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    emulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`emulator: error while stopping on ${signal}`, error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error('emulator:', error instanceof Error ? error.message : error);
  process.exit(1);
});
