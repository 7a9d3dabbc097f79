/**
 * The figures of what the stand-in saw, read from its recorded calls: calls, 429s and calls made
 * inside a running `Retry-After` per method, every refusal, and when each channel got its messages.
 */
import { stringArg } from './request.ts';
import type { MethodTraffic, RecordedCall, Refusal, SlackTraffic } from './types.ts';

const LIFETIME_RULES = new Set(['responseUrlLifetime', 'triggerIdLifetime', 'workflowTokenLifetime']);

const empty = (): MethodTraffic => ({ calls: 0, ok: 0, ratelimited: 0, duringRetryAfter: 0, expired: 0 });

function count(into: MethodTraffic, call: RecordedCall): void {
  into.calls += 1;
  if (call.response.ok === true) into.ok += 1;
  if (call.status === 429) into.ratelimited += 1;
  if (call.duringRetryAfter === true) into.duringRetryAfter += 1;
  if (call.refused !== undefined && LIFETIME_RULES.has(call.refused.by)) into.expired += 1;
}

function refusalOf(call: RecordedCall): Refusal | undefined {
  if (call.refused === undefined) return undefined;
  const channel = stringArg(call.args, 'channel');
  return {
    method: call.method,
    at: call.at,
    status: call.status,
    error: String(call.response.error),
    by: call.refused.by,
    ...(call.refused.retryAfterSec === undefined ? {} : { retryAfterSec: call.refused.retryAfterSec }),
    ...(call.workspace === undefined ? {} : { workspace: call.workspace }),
    ...(channel === undefined ? {} : { channel }),
  };
}

/** Traffic of `calls` (Web API and `response_url`, in arrival order). */
export function trafficOf(calls: readonly RecordedCall[]): SlackTraffic {
  const methods: Record<string, MethodTraffic> = {};
  const total = empty();
  const refusals: Refusal[] = [];
  const postedAt: Record<string, number[]> = {};
  for (const call of calls) {
    const method = methods[call.method] ?? empty();
    methods[call.method] = method;
    count(method, call);
    count(total, call);
    const refusal = refusalOf(call);
    if (refusal !== undefined) refusals.push(refusal);
    if (call.method === 'chat.postMessage' && call.response.ok === true) {
      const channel = String(call.response.channel);
      const times = postedAt[channel] ?? [];
      times.push(call.at);
      postedAt[channel] = times;
    }
  }
  return { methods, total, refusals, postedAt };
}
