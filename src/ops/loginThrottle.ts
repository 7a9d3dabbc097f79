/**
 * Wrong passwords cost time: a client (its address as the server sees it) that sends
 * `maxFailures` wrong credentials within `windowMs` is locked out until the window that began
 * with its first failure ends, and is told when to come back (429, `Retry-After`). While locked
 * out, nothing it sends is checked, right or wrong, so guessing on learns nothing. A right
 * password clears the client's failures. Requests without credentials (a browser's first
 * request, before it asks for them) are not failures.
 *
 * A client is an IPv4 address, or an IPv6 /64 (one host usually holds a whole /64, so counting
 * its addresses one by one would give it 2^64 times the guesses).
 *
 * Per process and in memory: with N web processes a client has N times the failures, and at
 * most `maxClients` clients are remembered (the oldest forgotten first). Behind a proxy every
 * client has the proxy's address, so one guesser locks everyone out for a while: a nuisance,
 * never a way in.
 */

export interface ThrottleSettings {
  maxFailures: number;
  windowMs: number;
  maxClients: number;
}

export const DEFAULT_THROTTLE: ThrottleSettings = {
  maxFailures: 10,
  windowMs: 10 * 60_000,
  maxClients: 10_000,
};

interface Failures {
  failures: number;
  /** when the first failure of the window was */
  since: number;
}

export interface LoginThrottle {
  /** ms until the client may try again; 0 when it may try now */
  lockedFor(client: string): number;
  failed(client: string): void;
  succeeded(client: string): void;
}

export function loginThrottle(
  settings: ThrottleSettings = DEFAULT_THROTTLE,
  now: () => number = Date.now,
): LoginThrottle {
  const clients = new Map<string, Failures>();
  const current = (client: string): Failures | undefined => {
    const record = clients.get(client);
    if (record && now() - record.since >= settings.windowMs) {
      clients.delete(client);
      return undefined;
    }
    return record;
  };
  return {
    lockedFor(client) {
      const record = current(client);
      if (!record || record.failures < settings.maxFailures) return 0;
      return Math.max(1, record.since + settings.windowMs - now());
    },
    failed(client) {
      const record = current(client) ?? { failures: 0, since: now() };
      record.failures += 1;
      clients.delete(client);
      clients.set(client, record);
      if (clients.size > settings.maxClients) clients.delete(clients.keys().next().value!);
    },
    succeeded(client) {
      clients.delete(client);
    },
  };
}

/** The client an address belongs to: an IPv4 address (IPv4-mapped ones too), or an IPv6 /64. */
export function clientOf(address: string | undefined): string {
  if (!address) return 'unknown';
  const plain = address.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped) return mapped[1]!;
  if (!plain.includes(':')) return plain;
  const [head = '', tail] = plain.split('::');
  const front = head === '' ? [] : head.split(':');
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
