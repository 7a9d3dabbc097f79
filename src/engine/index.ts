/**
 * The engine's front door: what the runtime, the product (jobs/) and the CLI may use of the
 * exactly-once machinery (docs/engine.md). The runtime builds a worker that runs the product's
 * operations (createReliableWorker); a processor steps through its effects once (`ctx.once`),
 * tells its person once (`tell`), and throws the engine's errors to change how its job goes on.
 * Listeners tell through engine/tellNow.ts alone.
 */
export { createOutcomes, replacesAck, type SlackMessage } from './delivery.ts';
export { causeOf, isUserError, UserError } from './errors.ts';
export { type JobLease, jobLease } from './jobLease.ts';
export { CLOCK_MARGIN_MS, findSince } from './landed.ts';
export type { Rider } from './runLog.ts';
export type { EngineSettings, OpenedRun, Operations, ReliableWorkerOptions, RunContext } from './scope.ts';
export { MAX_STALLED_COUNT } from './stalledOut.ts';
export { readLog, reopenedLog } from './stepLog.ts';
export { tell } from './tell.ts';
export { createReliableWorker, outcomeTold } from './worker.ts';
