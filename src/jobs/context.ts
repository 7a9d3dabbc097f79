/**
 * What a processor is given: the engine's run (its job, `once`, how its person is told) and
 * everything of the product it may touch.
 */

import type { WebClient } from '@slack/web-api';
import type { CollabClient } from '../collab/client.ts';
import type { RunContext } from '../engine/index.ts';
import type { JobData, Operation } from '../operations/schemas.ts';
import type { Store } from '../store/index.ts';
import type { RecentSubject } from '../store/recent.ts';
import type { PollingSettings } from './polling.ts';
import type { Schedules } from './schedules.ts';

export interface ProcessorContext extends RunContext {
  teamId: string;
  collab: CollabClient;
  slack: WebClient;
  store: Store;
  /** recurring work: feed polls, thread mirroring, digests */
  schedules: Schedules;
  /** intervals of feed and thread polling (FEED_POLL_INTERVAL_MS, THREAD_POLL_*_MS) */
  polling: PollingSettings;
  /** how much the request budget stretches polling intervals now (1: as configured); absent: 1 */
  pollStretch?: (() => Promise<number>) | undefined;
  /**
   * Names what the operation acts on (its post, or a message's people), for the person's recent
   * operations on App Home: "resolve the post *Launch plan*", "send the message to *Grace Hopper*".
   * The last name given stands; none: the operation's words alone.
   */
  about: (subject: RecentSubject) => void;
  /** operator options of features (config.ts); absent: the defaults */
  features?: ProcessorFeatures | undefined;
}

export interface ProcessorFeatures {
  /** DIGEST_QUIET_NOTE: post a one-line note when a digest has nothing to say (default: post nothing) */
  digestQuietNote?: boolean | undefined;
  /** COLLAB_POST_URL_PATTERN: a url → post id pattern (one capture group) for links the bot has not seen */
  postUrlPattern?: RegExp | undefined;
  /** the slash command, for hints in unfurls and App Home (default `/collab`) */
  command?: string | undefined;
}

/** The slash command people type, for hints in answers (config's SLASH_COMMAND). */
export function commandOf(ctx: Pick<ProcessorContext, 'features'>): string {
  return ctx.features?.command ?? '/collab';
}

export type Processor<O extends Operation> = (data: JobData<O>, ctx: ProcessorContext) => Promise<void>;

export type Processors = { [O in Operation]: Processor<O> };
