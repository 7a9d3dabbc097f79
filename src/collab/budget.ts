/**
 * The request budget hook of the client: before a request leaves, the budget of its service host
 * is asked for a turn; after a 429 the host's budget is paused. The budget itself (shared by every
 * process through Redis) lives in the store; the client only knows this interface.
 *
 * Which lane a request belongs to, and for which workspace, is carried by the async context of
 * the work that sends it (`withBudgetScope`): a job run by the worker sets it; a request outside
 * any scope (the web role's pickers, a person waiting) counts as a person's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** `person`: an operation a person asked for; `background`: feed and thread polls, digests, unfurls. */
export type BudgetLane = 'person' | 'background';

export interface BudgetScope {
  lane: BudgetLane;
  /** the Slack team the request is made for (fair shares between workspaces) */
  teamId?: string | undefined;
  /** how long a request may wait for its turn before it fails as rate limited (retried later) */
  maxWaitMs?: number | undefined;
}

export interface RequestBudget {
  /**
   * Resolves when the request may leave; throws a rate-limited CollabError (with `retryAfterMs`)
   * when its turn is further away than the scope's `maxWaitMs`.
   */
  take(host: string, operation: string, scope: BudgetScope, signal?: AbortSignal): Promise<void>;
  /** The service answered 429: every process holds back from this host for a while. */
  refused(host: string, retryAfterMs: number | undefined): Promise<void>;
}

const scopes = new AsyncLocalStorage<BudgetScope>();

/** Runs `fn` with every request it sends counted in this lane, for this team. */
export function withBudgetScope<T>(scope: BudgetScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/** The scope of the running work; a person's when none was set. */
export function currentBudgetScope(): BudgetScope {
  return scopes.getStore() ?? { lane: 'person' };
}
