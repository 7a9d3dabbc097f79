/**
 * The request budget hook of the client: before a request leaves, the budget of its service host
 * is asked for a turn; after a 429 the host's budget is paused. The budget itself (shared by every
 * process through Redis) lives in the store; the client only knows this interface.
 *
 * Which lane a request belongs to, and for which workspace, travels with the request: a job's
 * client is scoped to its lane and workspace (`CollabClient.scoped`); a request of an unscoped
 * client (the web role's pickers, a person waiting) counts as a person's. (An AsyncLocalStorage
 * carried it before: on Node 20 that runs a hook for every promise of the process.)
 */
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

/** The scope of a request sent outside any job (the web role's pickers): a person waits for it. */
export const PERSON_SCOPE: BudgetScope = Object.freeze({ lane: 'person' });
