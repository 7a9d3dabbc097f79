/**
 * The bot starts in stages (connect, core, workers, web), each returning how to stop what it
 * started; the runtime stops them in the reverse order, so nothing stops before what uses it.
 */

/** Stops what a stage started. */
export type Stop = () => Promise<void>;

/**
 * Runs the stops last first. Every stop runs even if one before it failed (a stage left running
 * would keep the process up); the first failure is thrown once all have run.
 */
export async function stopInReverse(stops: readonly Stop[]): Promise<void> {
  const failures: unknown[] = [];
  for (const stop of [...stops].reverse()) {
    await stop().catch((error: unknown) => failures.push(error));
  }
  if (failures.length > 0) throw failures[0];
}

/**
 * Starts stages one after another, each given what the ones before it made. Should one fail to
 * start, those already started are stopped (last first) before the failure is thrown.
 */
export class Starter {
  readonly #stops: Stop[] = [];

  async start<T extends { stop: Stop }>(stage: () => Promise<T>): Promise<T> {
    try {
      const started = await stage();
      this.#stops.push(started.stop);
      return started;
    } catch (error) {
      await stopInReverse(this.#stops).catch(() => {});
      throw error;
    }
  }

  /** Stops every stage started, last first. */
  stop(): Promise<void> {
    return stopInReverse(this.#stops.splice(0));
  }
}
