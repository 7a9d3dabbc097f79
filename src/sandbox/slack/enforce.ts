/**
 * The stand-in's referee: before a call is answered, the rules in force (rules.ts) may refuse it
 * the way Slack does — an expired workflow token, a rate limit, a spent or late `trigger_id`, a
 * step completed twice, a spent or old `response_url`. Lifetimes are tracked whether or not their
 * rule is on, so a rule turned on halfway sees what came before.
 */
import { type Lifetimes, WORKFLOW_TOKEN_PREFIX } from './lifetimes.ts';
import { resolveChannel } from './methods.ts';
import { limitsFor, methodKey, type RateLimiter, retryKeys } from './rateLimits.ts';
import { stringArg } from './request.ts';
import type { RateLimitRule, SlackRuleName, SlackRules } from './rules.ts';
import { type Installation, type SlackWorld, workspaceOf } from './world.ts';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** A refused call: the answer, and what refused it. */
export interface Refused {
  answer: Answer;
  by: SlackRuleName;
  retryAfterSec?: number;
}

export interface CallFacts {
  method: string;
  args: Record<string, unknown>;
  token: string | undefined;
  installation: Installation;
  at: number;
}

/** Where a call counts, and what the rules made of it before it reaches its handler. */
export interface Verdict {
  workspace: string;
  channel?: string;
  duringRetryAfter: boolean;
  refused?: Refused;
  /** The arguments the handler sees (a page size Slack caps, say); the call is recorded as sent. */
  args: Record<string, unknown>;
}

export const ratelimited = (retryAfterSec: number): Answer => ({
  status: 429,
  body: { ok: false, error: 'ratelimited' },
  headers: { 'retry-after': String(retryAfterSec) },
});

const platformError = (error: string): Answer => ({ status: 200, body: { ok: false, error } });

const OPENS_VIEW = new Set(['views.open', 'views.push']);
const COMPLETES_STEP = new Set(['functions.completeSuccess', 'functions.completeError']);
const HISTORY = new Set(['conversations.history', 'conversations.replies']);

export class Rulebook {
  rules: SlackRules;

  constructor(
    private readonly world: SlackWorld,
    private readonly limiter: RateLimiter,
    private readonly lifetimes: Lifetimes,
    rules: SlackRules,
  ) {
    this.rules = rules;
  }

  /**
   * What the rules say of a Web API call before its handler runs; with `judge` false (a failure
   * a test scheduled answers it) only where it counts, with nothing spent.
   */
  before(call: CallFacts, judge = true): Verdict {
    const workspace = workspaceOf(call.installation, call.args);
    const requested = call.method === 'chat.postMessage' ? stringArg(call.args, 'channel') : undefined;
    const channel = requested === undefined ? undefined : resolveChannel(this.world, requested);
    const running = this.limiter.running(retryKeys(workspace, call.method, channel), call.at);
    const verdict: Verdict = {
      workspace,
      ...(channel === undefined ? {} : { channel }),
      duringRetryAfter: running !== undefined,
      args: this.pageCapped(call),
    };
    if (!judge) return verdict;
    const refused =
      this.tokenRefusal(call) ??
      this.rateRefusal(call, workspace, channel, running?.retryAfterSec) ??
      this.triggerRefusal(call) ??
      this.completionRefusal(call);
    if (refused !== undefined) verdict.refused = refused;
    return verdict;
  }

  /** What a call answered changes: a trigger that opened a view is spent, a completed step's token dies. */
  after(call: CallFacts, body: Record<string, unknown>): void {
    if (body.ok !== true) return;
    const triggerId = stringArg(call.args, 'trigger_id');
    if (OPENS_VIEW.has(call.method) && triggerId !== undefined) this.lifetimes.spendTrigger(triggerId);
    const execution = stringArg(call.args, 'function_execution_id');
    if (COMPLETES_STEP.has(call.method) && execution !== undefined) {
      this.lifetimes.complete(execution, call.token);
    }
  }

  /** A 429 a test scheduled (`failNext`) starts its `Retry-After` like one of the rules'. */
  ratelimitedByTest(call: CallFacts, workspace: string, retryAfterSec: number): void {
    this.limiter.open(methodKey(workspace, call.method), call.at, retryAfterSec);
  }

  /** Spends a use of a response URL; Slack's refusal when it is old or spent. */
  responseUrl(path: string, at: number): Refused | undefined {
    const rule = this.rules.responseUrlLifetime;
    const error = this.lifetimes.useResponseUrl(
      path,
      at,
      rule === false ? { uses: Number.POSITIVE_INFINITY, lifetimeMs: Number.POSITIVE_INFINITY } : rule,
    );
    // Slack documents the rule ("up to 5 times within 30 minutes"), not its answer. The stand-in
    // answers 404 with `expired_url` (too late) or `used_url` (spent): an assumption, the answer
    // this stand-in has long given for a response URL scheduled to fail with those errors.
    return error === undefined
      ? undefined
      : { answer: { status: 404, body: { ok: false, error } }, by: 'responseUrlLifetime' };
  }

  // Workflow tokens die 15 minutes after issue or when their step completes (Slack's answer in
  // slackapi/bolt-python#1075). Calls with a dead one are answered `token_revoked`, the error
  // developers report for it (slackapi/bolt-js#2288, slackapi/bolt-python#1305).
  private tokenRefusal(call: CallFacts): Refused | undefined {
    const rule = this.rules.workflowTokenLifetime;
    if (rule === false || !call.token?.startsWith(WORKFLOW_TOKEN_PREFIX)) return undefined;
    if (!this.lifetimes.workflowTokenDead(call.token, call.at, rule)) return undefined;
    return { answer: platformError('token_revoked'), by: 'workflowTokenLifetime' };
  }

  private rateRefusal(
    call: CallFacts,
    workspace: string,
    channel: string | undefined,
    runningSec: number | undefined,
  ): Refused | undefined {
    const rule = this.rules.rateLimits;
    if (rule === false) return undefined;
    // Slack asked this key to wait and the wait is not over: refused again, taking nothing.
    if (runningSec !== undefined) {
      return { answer: ratelimited(runningSec), by: 'rateLimits', retryAfterSec: runningSec };
    }
    const refusal = this.limiter.take(limitsFor(rule, workspace, call.method, channel), call.at);
    if (refusal === undefined) return undefined;
    return {
      answer: ratelimited(refusal.retryAfterSec),
      by: 'rateLimits',
      retryAfterSec: refusal.retryAfterSec,
    };
  }

  private triggerRefusal(call: CallFacts): Refused | undefined {
    const rule = this.rules.triggerIdLifetime;
    const triggerId = stringArg(call.args, 'trigger_id');
    if (rule === false || !OPENS_VIEW.has(call.method) || triggerId === undefined) return undefined;
    const error = this.lifetimes.triggerRefusal(triggerId, call.at, rule);
    return error === undefined ? undefined : { answer: platformError(error), by: 'triggerIdLifetime' };
  }

  /** A step completes once (`functions.completeSuccess` / `completeError` documented errors). */
  private completionRefusal(call: CallFacts): Refused | undefined {
    if (this.rules.workflowTokenLifetime === false || !COMPLETES_STEP.has(call.method)) return undefined;
    const execution = stringArg(call.args, 'function_execution_id');
    if (execution === undefined || !this.lifetimes.completed(execution)) return undefined;
    return { answer: platformError('execution_not_in_running_state'), by: 'workflowTokenLifetime' };
  }

  /** Apps not in the Marketplace read history 15 messages a page at most. */
  private pageCapped(call: CallFacts): Record<string, unknown> {
    const rule: RateLimitRule | false = this.rules.rateLimits;
    if (rule === false || rule.marketplaceApproved || !HISTORY.has(call.method)) return call.args;
    const asked = Number(stringArg(call.args, 'limit') ?? rule.unlistedPageSize);
    const limit =
      Number.isFinite(asked) && asked > 0 ? Math.min(asked, rule.unlistedPageSize) : rule.unlistedPageSize;
    return { ...call.args, limit };
  }
}
