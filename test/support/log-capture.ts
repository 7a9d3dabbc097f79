/**
 * A pino destination that keeps every line, for tests that read logs: wait for a line (an event,
 * not a sleep), or grep everything written for secrets.
 */
import { Writable } from 'node:stream';

export interface LogLine {
  msg?: string;
  [field: string]: unknown;
}

export interface LogCapture {
  stream: Writable;
  /** every line as written */
  text(): string;
  lines(): LogLine[];
  /** the first line matching, already written or future */
  waitFor(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
}

export function captureLogs(): LogCapture {
  const raw: string[] = [];
  const parsed: LogLine[] = [];
  const waiters = new Set<{ predicate: (l: LogLine) => boolean; resolve: (l: LogLine) => void }>();
  let pending = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      pending += chunk.toString('utf8');
      let nl = pending.indexOf('\n');
      while (nl >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        raw.push(line);
        try {
          const entry = JSON.parse(line) as LogLine;
          parsed.push(entry);
          for (const waiter of [...waiters]) {
            if (waiter.predicate(entry)) {
              waiters.delete(waiter);
              waiter.resolve(entry);
            }
          }
        } catch {
          // not JSON: kept in text() only
        }
        nl = pending.indexOf('\n');
      }
      callback();
    },
  });
  return {
    stream,
    text: () => raw.join('\n') + pending,
    lines: () => [...parsed],
    waitFor(predicate, timeoutMs = 8000) {
      const found = parsed.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<LogLine>((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (line: LogLine) => {
            clearTimeout(timer);
            resolve(line);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no log line matched within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
  };
}
