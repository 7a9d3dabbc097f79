/** What a processor is given: the validated job data and everything it may touch. */

import type { WebClient } from '@slack/web-api';
import type { Job } from 'bullmq';
import type { CollabClient } from '../collab/client.ts';
import type { Logger } from '../logger.ts';
import type { Store } from '../store/index.ts';
import type { Outcomes } from './outcome.ts';
import type { JobData, Operation } from './schemas.ts';
import type { Once } from './steps.ts';

export interface ProcessorContext {
  job: Job;
  teamId: string;
  collab: CollabClient;
  slack: WebClient;
  store: Store;
  outcomes: Outcomes;
  /** run an effect once across retries and restarts (see steps.ts) */
  once: Once;
  logger: Logger;
  /** true on any run after the first (a retry, or a re-run after a crash or stall) */
  isRerun: boolean;
  signal: AbortSignal | undefined;
}

export type Processor<O extends Operation> = (data: JobData<O>, ctx: ProcessorContext) => Promise<void>;

export type Processors = { [O in Operation]: Processor<O> };
