/**
 * The process's last line of defence: an error nothing caught is logged, never a silent death.
 *
 * - A promise rejection nobody handled is one piece of work that failed: it is logged, and the
 *   process keeps serving (Node would otherwise exit, taking every other request with it).
 * - An exception thrown outside any handler leaves the process in a state nobody knows: it is
 *   logged, the process stops as on SIGTERM (`stop`: finish what is running, within
 *   `FATAL_STOP_MS`) and exits with code 1, for its supervisor to start a fresh one.
 */
import type { Logger } from '../logger.ts';

/** How long a process stopping after an uncaught exception may take before it exits anyway. */
export const FATAL_STOP_MS = 10_000;

export interface SafetyNet {
  /** takes the handlers off again (tests) */
  remove(): void;
}

export function installSafetyNet(
  logger: Logger,
  stop: () => Promise<void>,
  exit: (code: number) => void = (code) => process.exit(code),
): SafetyNet {
  let stopping = false;
  const onRejection = (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled promise rejection; the process keeps serving');
  };
  const onException = (error: Error, origin: string) => {
    logger.fatal({ err: error, origin }, 'uncaught exception; stopping so that a fresh process takes over');
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => exit(1), FATAL_STOP_MS);
    timer.unref();
    stop()
      .catch((stopError: unknown) => logger.error({ err: stopError }, 'could not stop cleanly'))
      .finally(() => {
        clearTimeout(timer);
        exit(1);
      });
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return {
    remove() {
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onException);
    },
  };
}
