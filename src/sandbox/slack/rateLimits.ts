/**
 * Slack's rate limits as the stand-in applies them: a token bucket per (workspace, method) by
 * tier, and for `chat.postMessage` one per (workspace, channel) plus one per workspace. A refused
 * call is answered 429 with `Retry-After` (whole seconds until the bucket has a call again) and
 * takes nothing from the buckets. A `Retry-After` runs for its key until it ends: calls made on
 * that key meanwhile are counted, and refused while the rule is on.
 */
import type { Allowance, RateLimitRule } from './rules.ts';

/** Which limit refused: the method's tier, the channel's, or the workspace's for posting. */
export type LimitScope = 'method' | 'channel' | 'workspace';

export interface LimitCheck {
  key: string;
  scope: LimitScope;
  allowance: Allowance;
}

export interface LimitRefusal {
  key: string;
  scope: LimitScope;
  retryAfterSec: number;
}

/** The key a `Retry-After` of `method` (not of a channel) runs on. */
export function methodKey(workspace: string, method: string): string {
  return `${workspace} ${method}`;
}

function channelKey(workspace: string, method: string, channel: string): string {
  return `${workspace} ${method} ${channel}`;
}

/** Every key a call may be inside a running `Retry-After` of. */
export function retryKeys(workspace: string, method: string, channel: string | undefined): string[] {
  const keys = [methodKey(workspace, method)];
  if (channel !== undefined) keys.push(channelKey(workspace, method, channel));
  return keys;
}

/** The limits a call of `method` counts against; none for methods Slack does not limit by tier. */
export function limitsFor(
  rule: RateLimitRule,
  workspace: string,
  method: string,
  channel: string | undefined,
): LimitCheck[] {
  if (method === 'chat.postMessage') {
    const checks: LimitCheck[] = [
      { key: methodKey(workspace, method), scope: 'workspace', allowance: rule.postMessagePerWorkspace },
    ];
    if (channel !== undefined) {
      checks.push({
        key: channelKey(workspace, method, channel),
        scope: 'channel',
        allowance: rule.postMessagePerChannel,
      });
    }
    return checks;
  }
  const history = method === 'conversations.history' || method === 'conversations.replies';
  if (history && !rule.marketplaceApproved) {
    return [{ key: methodKey(workspace, method), scope: 'method', allowance: rule.unlistedHistory }];
  }
  const tier = Object.hasOwn(rule.methods, method) ? rule.methods[method] : undefined;
  if (tier === undefined) return [];
  return [{ key: methodKey(workspace, method), scope: 'method', allowance: rule.tiers[tier] }];
}

interface Bucket {
  tokens: number;
  at: number;
}

const toSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  /** key → end of the running `Retry-After` (epoch ms) */
  readonly #retryUntil = new Map<string, number>();

  #refilled(check: LimitCheck, at: number): Bucket {
    const { perMinute, burst } = check.allowance;
    const bucket = this.#buckets.get(check.key) ?? { tokens: burst, at };
    const tokens = Math.min(burst, bucket.tokens + ((at - bucket.at) * perMinute) / 60_000);
    const next = { tokens, at };
    this.#buckets.set(check.key, next);
    return next;
  }

  /**
   * Takes one call from every bucket of `checks`, or none if one of them is empty: then the
   * refusal names the emptiest (the longest wait) and opens its `Retry-After`.
   */
  take(checks: LimitCheck[], at: number): LimitRefusal | undefined {
    let refusal: LimitRefusal | undefined;
    const buckets = checks.map((check) => ({ check, bucket: this.#refilled(check, at) }));
    for (const { check, bucket } of buckets) {
      if (bucket.tokens >= 1) continue;
      const waitMs = ((1 - bucket.tokens) * 60_000) / check.allowance.perMinute;
      const retryAfterSec = toSeconds(waitMs);
      if (refusal === undefined || retryAfterSec > refusal.retryAfterSec) {
        refusal = { key: check.key, scope: check.scope, retryAfterSec };
      }
    }
    if (refusal !== undefined) {
      this.open(refusal.key, at, refusal.retryAfterSec);
      return refusal;
    }
    for (const { bucket } of buckets) bucket.tokens -= 1;
    return undefined;
  }

  /** Starts a `Retry-After` of `seconds` on `key` (a refusal, or a 429 scheduled by a test). */
  open(key: string, at: number, seconds: number): void {
    const until = at + seconds * 1000;
    if (until > (this.#retryUntil.get(key) ?? 0)) this.#retryUntil.set(key, until);
  }

  /** The running `Retry-After` among `keys` that ends last, if any: its key and the seconds left. */
  running(keys: string[], at: number): { key: string; retryAfterSec: number } | undefined {
    let found: { key: string; leftMs: number } | undefined;
    for (const key of keys) {
      const leftMs = (this.#retryUntil.get(key) ?? 0) - at;
      if (leftMs > 0 && (found === undefined || leftMs > found.leftMs)) found = { key, leftMs };
    }
    return found === undefined ? undefined : { key: found.key, retryAfterSec: toSeconds(found.leftMs) };
  }

  reset(): void {
    this.#buckets.clear();
    this.#retryUntil.clear();
  }
}
