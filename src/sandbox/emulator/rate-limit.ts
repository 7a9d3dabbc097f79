/**
 * The service's rate limit (SERVICE-FACTS.md): a number of requests per fixed window per client
 * address, for every organization together (there is no per-key limit). The real service allows
 * 500 requests per 30 seconds; the emulator applies it only when asked (`rateLimit` option), so
 * tests that are not about it are never throttled.
 */
export interface RateLimit {
  /** Requests allowed per window and address. */
  limit: number;
  windowMs: number;
}

export const SERVICE_RATE_LIMIT: RateLimit = { limit: 500, windowMs: 30_000 };

export class RateLimiter {
  readonly #rule: RateLimit;
  readonly #now: () => Date;
  #window = -1;
  readonly #counts = new Map<string, number>();

  constructor(rule: RateLimit, now: () => Date) {
    this.#rule = rule;
    this.#now = now;
  }

  /** Counts one request of `address`; false when it is over the limit of the current window. */
  take(address: string): boolean {
    const window = Math.floor(this.#now().getTime() / this.#rule.windowMs);
    if (window !== this.#window) {
      this.#window = window;
      this.#counts.clear();
    }
    const count = (this.#counts.get(address) ?? 0) + 1;
    this.#counts.set(address, count);
    return count <= this.#rule.limit;
  }
}
