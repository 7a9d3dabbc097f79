/**
 * Fault injection: rules consumed per matching request, and a standing latency.
 *
 * Rules apply in insertion order; the first rule whose route matches, that still has `times`
 * left and whose probability roll succeeds is consumed (a failed roll skips the rule without
 * consuming it). What a consumed rule does, in this order:
 *   latencyMs  wait before handling (added to the standing latency)
 *   drop: 'beforeApply'  destroy the socket without answering; nothing was applied
 *   status     answer this status (with `body`/`contentType`, `Retry-After`) without applying
 *   —          otherwise the request is handled and applied normally, then:
 *   drop: 'afterApply'   destroy the socket without answering; the write was applied
 *   stallMs    hold the answer this long
 *   malformedJson        answer the real status with a truncated (broken) JSON body
 *   body       answer the real status with this raw body instead
 */
import { z } from 'zod';

export type FaultDrop = 'beforeApply' | 'afterApply';

export interface FaultRule {
  /** `METHOD template` (`POST /v2/posts`, `GET /v2/posts/{id}`), `METHOD path`, or `*` (default). */
  route?: string;
  /** How many matching requests it applies to; default 1; `Infinity` allowed. */
  times?: number;
  /** 0..1, default 1. */
  probability?: number;
  latencyMs?: number;
  status?: number;
  /** `Retry-After` header value: seconds or an HTTP date. */
  retryAfter?: string;
  /** Raw body to answer with, e.g. plain text. */
  body?: string;
  contentType?: string;
  drop?: FaultDrop;
  malformedJson?: true;
  stallMs?: number;
}

const ms = z.number().int().min(0).max(600_000);

/**
 * Validates a rule (unknown fields are rejected, so typos surface). Over JSON (the control API)
 * `times` may be `"Infinity"` or `null` for Infinity.
 */
export const FaultRuleSchema = z.strictObject({
  route: z.string().min(1).optional(),
  times: z
    .union([z.number().int().min(1), z.literal(Infinity), z.literal('Infinity'), z.null()])
    .transform((value) => (typeof value === 'number' ? value : Infinity))
    .optional(),
  probability: z.number().min(0).max(1).optional(),
  latencyMs: ms.optional(),
  status: z.number().int().min(100).max(599).optional(),
  retryAfter: z.string().optional(),
  body: z.string().optional(),
  contentType: z.string().min(1).optional(),
  drop: z.enum(['beforeApply', 'afterApply']).optional(),
  malformedJson: z.literal(true).optional(),
  stallMs: ms.optional(),
});

export interface ActiveFault {
  id: string;
  rule: FaultRule;
  /** Matching requests it still applies to. */
  remaining: number;
  /** Requests it was applied to so far. */
  applied: number;
}

export interface FaultDecision {
  /** The consumed rule, if any. */
  fault?: ActiveFault;
  /** Standing latency plus the rule's latency. */
  latencyMs: number;
}

export const ANY_ROUTE = '*';

export class Faults {
  #rules: ActiveFault[] = [];
  readonly #latency = new Map<string, number>();
  #sequence = 0;
  readonly #random: () => number;

  constructor(random: () => number = Math.random) {
    this.#random = random;
  }

  /** Adds a rule (validated; throws on an invalid one) and returns its id. */
  add(rule: FaultRule): string {
    const parsed: FaultRule = FaultRuleSchema.parse(rule);
    this.#sequence += 1;
    const id = `flt_${this.#sequence}`;
    this.#rules.push({ id, rule: parsed, remaining: parsed.times ?? 1, applied: 0 });
    return id;
  }

  remove(id: string): boolean {
    const before = this.#rules.length;
    this.#rules = this.#rules.filter((fault) => fault.id !== id);
    return this.#rules.length !== before;
  }

  /** Removes every rule and every standing latency. */
  clear(): void {
    this.#rules = [];
    this.#latency.clear();
  }

  /** A standing latency for every request of a route (`*` by default); 0 removes it. */
  setLatency(latencyMs: number, route: string = ANY_ROUTE): void {
    const value = ms.parse(latencyMs);
    if (value === 0) this.#latency.delete(route);
    else this.#latency.set(route, value);
  }

  /** The rules still active (with `remaining` left), as copies. */
  list(): ActiveFault[] {
    return this.#rules.filter((fault) => fault.remaining > 0).map((fault) => structuredClone(fault));
  }

  latencies(): Record<string, number> {
    return Object.fromEntries(this.#latency);
  }

  /**
   * Decides the fault of one request and consumes the rule. `route` is the route name
   * (`GET /v2/posts/{id}`), `concrete` the request's own `METHOD path`.
   */
  take(route: string, concrete: string): FaultDecision {
    const matches = (pattern: string | undefined) =>
      pattern === undefined || pattern === ANY_ROUTE || pattern === route || pattern === concrete;
    const standing =
      this.#latency.get(route) ?? this.#latency.get(concrete) ?? this.#latency.get(ANY_ROUTE) ?? 0;
    for (const fault of this.#rules) {
      if (fault.remaining <= 0 || !matches(fault.rule.route)) continue;
      const probability = fault.rule.probability ?? 1;
      if (probability < 1 && this.#random() >= probability) continue;
      fault.remaining -= 1;
      fault.applied += 1;
      return { fault: structuredClone(fault), latencyMs: standing + (fault.rule.latencyMs ?? 0) };
    }
    return { latencyMs: standing };
  }
}
