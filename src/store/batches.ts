/**
 * Writes that can wait a moment, gathered: items added within `waitMs` of the first one waiting,
 * or until `max` wait, are written by one call, in the order they were added. Each `add` resolves
 * once the write carrying its item is done, or rejects with that write's error.
 */
export interface Batches<T> {
  add(item: T): Promise<void>;
  /** writes what waits now; resolves once every write begun so far is done (rejects if one failed) */
  flush(): Promise<void>;
}

interface Batch<T> {
  items: T[];
  done: Promise<void>;
  settle: (error?: unknown) => void;
}

export function writeInBatches<T>(
  write: (items: T[]) => Promise<void>,
  limits: { waitMs: number; max: number },
): Batches<T> {
  let waiting: Batch<T> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const writing = new Set<Promise<void>>();

  const open = (): Batch<T> => {
    let settle!: (error?: unknown) => void;
    const done = new Promise<void>((resolve, reject) => {
      settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    // Whoever added an item hears of a failure; the batch itself is no unhandled rejection.
    done.catch(() => {});
    return { items: [], done, settle };
  };

  const send = (): void => {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    if (!batch) return;
    waiting = undefined;
    writing.add(batch.done);
    void batch.done.finally(() => writing.delete(batch.done)).catch(() => {});
    write(batch.items).then(
      () => batch.settle(),
      (error: unknown) => batch.settle(error ?? new Error('the batch was not written')),
    );
  };

  return {
    add(item) {
      waiting ??= open();
      waiting.items.push(item);
      const { done } = waiting;
      if (waiting.items.length >= limits.max) send();
      else timer ??= setTimeout(send, limits.waitMs);
      return done;
    },
    async flush() {
      send();
      await Promise.all([...writing]);
    },
  };
}
