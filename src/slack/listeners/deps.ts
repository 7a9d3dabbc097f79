/**
 * What every listener is given beside Bolt's own arguments. slack/app.ts builds it and registers
 * the listeners; the listeners import the type from here, never from app.ts (that would be a cycle).
 */

import type { Logger } from '../../logger.ts';
import type { OperationsQueue } from '../../operations/queue.ts';
import type { Store } from '../../store/index.ts';
import type { CollabClientSettings, Workspaces } from '../../workspaces/workspaces.ts';

/** What listeners are given, beside Bolt's own arguments. */
export interface ListenerDeps {
  command: string;
  queue: OperationsQueue;
  store: Store;
  workspaces: Workspaces;
  logger: Logger;
  /** how long option lists (pickers) wait on the collaboration API (`COLLAB_OPTIONS_TIMEOUT_MS`) */
  optionsTimeoutMs: number;
  /** workspace settings: who may change them, how the service is connected; default single-workspace */
  settings?: ListenerSettings;
}

export interface ListenerSettings {
  /** single: credentials from the environment; multi: OAuth installs, admins connect on App Home */
  mode: 'single' | 'multi';
  /** Slack user ids allowed to change settings besides workspace admins and owners */
  adminUserIds: string[];
  /** http:// on localhost is acceptable as the service's base url (development, tests, opt-in) */
  allowInsecureCollabUrl: boolean;
  /** timeouts and hooks of the collab clients made to check a key */
  collab: CollabClientSettings;
}
