/** The public shapes of the emulator (others code against these names). */
import type { EventEmitter } from 'node:events';
import type { QueryNames } from '../../collab/wire.ts';
import type { ActiveFault, Faults } from './faults.ts';
import type { RateLimit } from './rate-limit.ts';
import type { OrgState } from './state.ts';

export interface EmulatorOptions {
  /** 0 = a free port (default). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Each key is its own organization with its own seeded state; default one generated key. */
  apiKeys?: string[];
  /** Seed each organization with believable data (default true). */
  seed?: boolean;
  /** The clock of every timestamp the emulator makes; default the real one. */
  now?: () => Date;
  /** Overrides of the list query parameter names (defaults: `DEFAULT_QUERY_NAMES`). */
  queryNames?: Partial<QueryNames>;
  /** Random source of fault probability rolls, 0 ≤ x < 1 (default Math.random). */
  random?: () => number;
  /**
   * The service's rate limit per client address (`SERVICE_RATE_LIMIT` is the real one: 500 per
   * 30 s); off by default. A refused request gets 429 `Retry later` (plain text, no Retry-After).
   */
  rateLimit?: RateLimit;
  /** Client addresses the service blocks: 403 with a plain-text body. */
  blockedAddresses?: string[];
}

export interface ReceivedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Lower-case names; `authorization` redacted to `Bearer ***`. */
  headers: Record<string, string>;
  /** Parsed JSON, else the raw text; undefined without a body. */
  body: unknown;
  /** Epoch milliseconds on the emulator's clock. */
  at: number;
  /** Route name, e.g. `POST /v2/posts`, `GET /v2/posts/{id}`; `METHOD path` when no route matched. */
  route: string;
}

export interface HandledEvent {
  request: ReceivedRequest;
  /** The status the route answered (what would be sent without a fault). */
  status: number;
}

export interface FaultEvent {
  request: ReceivedRequest;
  fault: ActiveFault;
}

/**
 * `request`: received (before faults); `fault`: a rule was consumed; `handled`: the route ran
 * and its write (if any) is applied to state, before the answer is sent (or dropped, or stalled).
 */
export interface EmulatorEventMap {
  request: [ReceivedRequest];
  fault: [FaultEvent];
  handled: [HandledEvent];
}

export interface Emulator {
  /** base_url, e.g. http://127.0.0.1:PORT (endpoints are under url + '/v2/...'). */
  url: string;
  /** The first key. */
  apiKey: string;
  apiKeys: readonly string[];
  queryNames: QueryNames;
  /** The in-memory state of one organization (the first by default). */
  org(apiKey?: string): OrgState;
  faults: Faults;
  /** Every API request received (control API requests under /_emulator/ are not recorded). */
  received: ReceivedRequest[];
  /** Wait on these instead of sleeping. */
  events: EventEmitter<EmulatorEventMap>;
  /** Clears faults and received, reseeds every organization (in place: `org()` objects stay valid). */
  reset(): void;
  /** Stops listening, destroys open sockets, cancels pending latencies and stalls. */
  close(): Promise<void>;
}
