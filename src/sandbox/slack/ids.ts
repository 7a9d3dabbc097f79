/** Slack-looking message timestamps and ids, strictly increasing for the life of the process. */

const BASE_SECONDS = 1_700_000_000;
let tsSequence = 0;
let idSequence = 0;

/**
 * Next message `ts`: `'1700000000.000100'`, `'1700000000.000200'`, … (numerically and
 * lexicographically increasing, six decimals like Slack's).
 */
export function nextTs(): string {
  tsSequence += 1;
  const seconds = BASE_SECONDS + Math.floor(tsSequence / 10_000);
  const micros = (tsSequence % 10_000) * 100;
  return `${seconds}.${String(micros).padStart(6, '0')}`;
}

/** Next id with a Slack-like prefix: `V` (views), `D`, … followed by uppercase alphanumerics. */
export function nextId(prefix: string): string {
  idSequence += 1;
  return `${prefix}${String(idSequence).padStart(9, '0')}`;
}

/** A view `hash` as Slack returns it (opaque). */
export function nextHash(): string {
  idSequence += 1;
  return `${Math.floor(Date.now() / 1000)}.${idSequence.toString(36).padStart(8, '0')}`;
}
