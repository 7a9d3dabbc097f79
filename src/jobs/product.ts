/**
 * What the product gives the engine (engine Operations, docs/engine.md): which jobs are its
 * operations and their words, and how each run opens — the job's workspace, its clients scoped to
 * the request budget's lane, the store, the schedules — and each person's recent operations for
 * App Home. Retries, doubt, stalled jobs and telling the person are the engine's; the runtime
 * builds the worker (createReliableWorker) with these.
 */
import type { Job } from 'bullmq';
import type { BudgetLane } from '../collab/budget.ts';
import { createOutcomes, type OpenedRun, type Operations, replacesAck } from '../engine/index.ts';
import type { Logger } from '../logger.ts';
import { isOperation, type JobData, type Origin } from '../operations/schemas.ts';
import { describeOperation } from '../render/operationWords.ts';
import type { HostBudget } from '../store/budget.ts';
import type { Store } from '../store/index.ts';
import type { RecentSubject } from '../store/recent.ts';
import { NOT_CONNECTED, type Workspaces } from '../workspaces/workspaces.ts';
import type { ProcessorContext, ProcessorFeatures, Processors } from './context.ts';
import { POLL_DEDUPLICATION } from './pollDispatch.ts';
import { DEFAULT_POLLING, type PollingSettings } from './polling.ts';
import { POLL_OPERATIONS, type Schedules } from './schedules.ts';

export interface ProductDeps {
  workspaces: Workspaces;
  store: Store;
  processors: Processors;
  schedules: Schedules;
  /** polling intervals; default DEFAULT_POLLING */
  polling?: PollingSettings | undefined;
  /** the request budget per service host (store/budget.ts); polls are paced by the poll schedule */
  budget?: HostBudget | undefined;
  logger: Logger;
  now?: (() => number) | undefined;
  /** operator options of features (digests' quiet note, the post url pattern, the slash command) */
  features?: ProcessorFeatures | undefined;
}

/**
 * Operations whose one effect is sent with no step of the log, because sending it again changes
 * nothing: resolving a post (the service overwrites the resolution with the same) and reopening
 * one (the engine's Operations.sentOutsideLog).
 */
const SENT_OUTSIDE_LOG: ReadonlySet<string> = new Set(['resolvePost', 'unresolvePost']);

/** How long a job waits for a turn of the request budget before it is delayed instead (frees its slot). */
const BUDGET_WAIT_MS: Record<BudgetLane, number> = { person: 10_000, background: 5_000 };

/** What the product's side of a worker reads. */
interface Product {
  deps: ProductDeps;
  now: () => number;
  /** what each job's run named as its subject (ProcessorContext.about), read when it ends */
  subjects: WeakMap<Job, RecentSubject>;
}

/** The product's operations, as a reliable worker runs them (createReliableWorker's `operations`). */
export function productOperations(deps: ProductDeps): Operations {
  const product: Product = { deps, now: deps.now ?? Date.now, subjects: new WeakMap() };
  return {
    runs: isOperation,
    describe: describeOperation,
    sentOutsideLog: SENT_OUTSIDE_LOG,
    open: (job) => openRun(product, job),
    reach: async (teamId) => {
      const workspace = await deps.workspaces.get(teamId);
      return workspace ? createOutcomes(workspace.slack, deps.logger, product.now) : undefined;
    },
    ended: (origin, job, outcome, reason) => rememberOutcome(product, origin, job, outcome, reason),
  };
}

/** One run of a job: its workspace's clients, the processor of its operation, with what it may touch. */
async function openRun(product: Product, job: Job): Promise<OpenedRun | { refused: string }> {
  const { deps } = product;
  const operation = job.name as keyof Processors;
  // Validated once, before it entered the queue (enqueue, schedules.upsert): operations/schemas.ts.
  const data = job.data as JobData<typeof operation>;
  // Jobs a person asked for carry their origin; scheduled jobs (feeds, digests) only a team.
  const origin: Origin | undefined = 'origin' in data ? data.origin : undefined;
  const teamId = origin?.teamId ?? (data as unknown as { teamId: string }).teamId;
  const workspace = await deps.workspaces.get(teamId);
  if (!workspace) return { refused: await refuseWithoutWorkspace(product, job, teamId, origin) };
  // Jobs a person asked for take the budget's person lane; ticks of schedules the background's.
  const lane: BudgetLane = origin ? 'person' : 'background';
  return {
    outcomes: createOutcomes(workspace.slack, deps.logger, product.now),
    process(run) {
      const ctx: ProcessorContext = {
        ...run,
        teamId,
        // Every request of the job counts in its lane of the request budget, for its workspace.
        collab: workspace.collab.scoped({ lane, teamId, maxWaitMs: BUDGET_WAIT_MS[lane] }),
        slack: workspace.slack,
        store: deps.store,
        schedules: deps.schedules,
        polling: deps.polling ?? DEFAULT_POLLING,
        pollStretch: async () => {
          const host = workspace.collabHost;
          return deps.budget && host ? (await deps.budget.status(host)).stretch : 1;
        },
        about: (subject) => {
          product.subjects.set(job, subject);
        },
        features: deps.features,
      };
      // The processor registry is keyed by operation; the cast ties the two together.
      const processor = deps.processors[operation] as (d: typeof data, c: ProcessorContext) => Promise<void>;
      return processor(data, ctx);
    },
  };
}

/**
 * A job whose workspace is not connected, or gone: the person hears how to fix it, a poller
 * stops. Answers why the job fails.
 */
async function refuseWithoutWorkspace(
  product: Product,
  job: Job,
  teamId: string,
  origin: Origin | undefined,
): Promise<string> {
  const { deps } = product;
  deps.logger.warn({ jobId: job.id, teamId }, 'no workspace for job');
  // Installed but not connected: the person hears how to fix it (multi-workspace mode).
  const slack = await deps.workspaces.unconnectedSlack?.(teamId);
  if (slack && origin) {
    const notice = { text: `:electric_plug: ${NOT_CONNECTED}` };
    await createOutcomes(slack, deps.logger, product.now).deliver(origin, notice, {
      replaceOriginal: replacesAck(origin),
    });
    return 'workspace not connected';
  }
  // A poller of a workspace that is gone polls nothing, ever: it leaves the poll schedule.
  const poller = job.opts.deduplication?.id;
  if (POLL_OPERATIONS.has(job.name) && poller?.startsWith(POLL_DEDUPLICATION)) {
    await deps.schedules.remove(poller.slice(POLL_DEDUPLICATION.length));
  }
  return 'workspace not installed';
}

/** Each finished operation of a person is remembered for their App Home, with what it acted on. */
async function rememberOutcome(
  product: Product,
  origin: Origin,
  job: Job,
  outcome: 'completed' | 'failed',
  reason?: string,
): Promise<void> {
  const subject = product.subjects.get(job);
  await product.deps.store.recent
    .record(origin.teamId, origin.userId, {
      operation: job.name,
      ...(subject ? { subject } : {}),
      outcome,
      ...(reason ? { reason } : {}),
      at: new Date(product.now()).toISOString(),
    })
    .catch((error: unknown) => product.deps.logger.warn({ err: error }, 'could not remember the outcome'));
}
