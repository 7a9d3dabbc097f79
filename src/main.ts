/**
 * The production entry (dist/main.js, the image's entry): reads the role (web | worker | all,
 * from `--role=` or ROLE), loads the configuration, starts, and stops gracefully on SIGTERM/SIGINT.
 * An incomplete configuration is an error naming what is missing. It never imports the sandbox:
 * `npm start` (src/start.ts) chooses between this entry and the sandbox's own.
 */
import { type Config, ConfigError, loadConfigFor, ROLES, type Role } from './config.ts';
import { createLogger } from './logger.ts';
import { installSafetyNet } from './ops/processSafety.ts';
import { startBot } from './runtime.ts';

function roleFromArgs(argv: string[]): Role | undefined {
  const i = argv.findIndex((a) => a === '--role' || a.startsWith('--role='));
  if (i === -1) return undefined;
  const value = argv[i]!.includes('=') ? argv[i]!.slice('--role='.length) : argv[i + 1];
  if (!(ROLES as readonly string[]).includes(value ?? '')) {
    process.stderr.write(`Unknown role "${value ?? ''}". Use one of: ${ROLES.join(', ')}.\n`);
    process.exit(1);
  }
  return value as Role;
}

async function main() {
  const role = roleFromArgs(process.argv.slice(2));
  let config: Config;
  try {
    config = loadConfigFor(role);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(
        `${error.message}\n\nSet them in the environment (see docs/configuration.md) and start again.\n`,
      );
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel });
  const bot = await startBot(config, logger);
  // An error nothing caught is logged; an uncaught exception stops the process for its supervisor.
  installSafetyNet(logger, () => bot.stop());
  logger.info(
    { role: config.role, ...(bot.port !== undefined ? { port: bot.port } : {}) },
    'collab-slack started',
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    const timer = setTimeout(() => {
      logger.error('graceful stop took too long; exiting');
      process.exit(1);
    }, 30_000);
    timer.unref();
    await bot.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `collab-slack could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
