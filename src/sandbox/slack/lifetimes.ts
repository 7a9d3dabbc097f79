/**
 * What Slack hands an app with an interaction, and how long it lives: a `response_url` (5 uses in
 * 30 minutes), a `trigger_id` (once, within 3 s), a workflow step's token (15 minutes, or until
 * the step completes). Their clock starts when Slack issues them: when a test tells the stand-in
 * (`issue(payload)`, or `responseUrl()` minting one); one the stand-in never heard of starts at
 * its first use, so it can still be spent twice or too often, never too late.
 */
import { isRecord } from './request.ts';
import type { ResponseUrlRule, TriggerIdRule, WorkflowTokenRule } from './rules.ts';

interface Issued {
  at: number;
}

interface WorkflowToken extends Issued {
  execution?: string;
}

/** Workflow tokens (`bot_access_token` of `function_executed`) start so. */
export const WORKFLOW_TOKEN_PREFIX = 'xwfp-';

function responseUrlPath(url: string): string | undefined {
  try {
    const path = new URL(url).pathname;
    return path.startsWith('/response/') ? path : undefined;
  } catch {
    return undefined;
  }
}

export class Lifetimes {
  readonly #responseUrls = new Map<string, Issued & { uses: number }>();
  readonly #triggers = new Map<string, Issued & { used: boolean }>();
  readonly #tokens = new Map<string, WorkflowToken>();
  readonly #completed = new Set<string>();

  /** A response URL (its path, `/response/<id>`) issued at `at`; an earlier issue stands. */
  issueResponseUrl(path: string, at: number): void {
    if (!this.#responseUrls.has(path)) this.#responseUrls.set(path, { at, uses: 0 });
  }

  issueTrigger(id: string, at: number): void {
    if (!this.#triggers.has(id)) this.#triggers.set(id, { at, used: false });
  }

  issueWorkflowToken(token: string, at: number, execution?: string): void {
    const known = this.#tokens.get(token);
    if (known === undefined) this.#tokens.set(token, { at, ...(execution ? { execution } : {}) });
    else if (execution !== undefined) known.execution ??= execution;
  }

  /**
   * Everything a payload Slack sends carries: `trigger_id`, `response_url`, `response_urls[]`
   * (view submissions), and a workflow step's `bot_access_token` with its execution — at the top
   * level (interactivity inside a step) or in `event` (`function_executed`).
   */
  issue(payload: unknown, at: number): void {
    if (!isRecord(payload)) return;
    if (typeof payload.trigger_id === 'string') this.issueTrigger(payload.trigger_id, at);
    const urls = [payload.response_url];
    if (Array.isArray(payload.response_urls)) {
      for (const entry of payload.response_urls) if (isRecord(entry)) urls.push(entry.response_url);
    }
    for (const url of urls) {
      const path = typeof url === 'string' ? responseUrlPath(url) : undefined;
      if (path !== undefined) this.issueResponseUrl(path, at);
    }
    for (const holder of [payload, payload.event]) {
      if (!isRecord(holder) || typeof holder.bot_access_token !== 'string') continue;
      const data = isRecord(holder.function_data) ? holder.function_data : undefined;
      const execution = holder.function_execution_id ?? data?.execution_id;
      this.issueWorkflowToken(
        holder.bot_access_token,
        at,
        typeof execution === 'string' ? execution : undefined,
      );
    }
  }

  /** Spends one use of a response URL; the error Slack answers when it cannot be used. */
  useResponseUrl(path: string, at: number, rule: ResponseUrlRule): 'expired_url' | 'used_url' | undefined {
    this.issueResponseUrl(path, at);
    const url = this.#responseUrls.get(path);
    if (url === undefined) return undefined;
    if (at - url.at > rule.lifetimeMs) return 'expired_url';
    if (url.uses >= rule.uses) return 'used_url';
    url.uses += 1;
    return undefined;
  }

  /** Why a trigger cannot open a view now, if it cannot (Slack's `views.open` errors). */
  triggerRefusal(
    id: string,
    at: number,
    rule: TriggerIdRule,
  ): 'exchanged_trigger_id' | 'expired_trigger_id' | undefined {
    this.issueTrigger(id, at);
    const trigger = this.#triggers.get(id);
    if (trigger === undefined) return undefined;
    if (trigger.used) return 'exchanged_trigger_id';
    if (at - trigger.at > rule.lifetimeMs) return 'expired_trigger_id';
    return undefined;
  }

  /** A view opened with it: the trigger is spent. */
  spendTrigger(id: string): void {
    const trigger = this.#triggers.get(id);
    if (trigger !== undefined) trigger.used = true;
  }

  /** Whether a workflow token is dead: older than the rule allows, or its step completed. */
  workflowTokenDead(token: string, at: number, rule: WorkflowTokenRule): boolean {
    this.issueWorkflowToken(token, at);
    const issued = this.#tokens.get(token);
    if (issued === undefined) return false;
    if (issued.execution !== undefined && this.#completed.has(issued.execution)) return true;
    return at - issued.at > rule.lifetimeMs;
  }

  /** A step completes (`functions.completeSuccess` / `completeError`): its token dies with it. */
  complete(execution: string, token: string | undefined): void {
    this.#completed.add(execution);
    if (token?.startsWith(WORKFLOW_TOKEN_PREFIX)) this.issueWorkflowToken(token, 0, execution);
  }

  completed(execution: string): boolean {
    return this.#completed.has(execution);
  }

  reset(): void {
    this.#responseUrls.clear();
    this.#triggers.clear();
    this.#tokens.clear();
    this.#completed.clear();
  }
}
