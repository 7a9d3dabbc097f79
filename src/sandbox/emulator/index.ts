/**
 * The emulator of the collaboration API v2 (spec/collab-api-v2.md): in-memory organizations,
 * the routes of spec §4 over node:http, fault injection, act-as-a-person helpers, and a control
 * API under `/_emulator/` for local tooling.
 */
export type { Actor } from './actor.ts';
export { ACT_OPS } from './control.ts';
export { type ActiveFault, type FaultDrop, type FaultRule, FaultRuleSchema, Faults } from './faults.ts';
export { DELETED_MESSAGE_HTML, ORG_SLUG } from './present.ts';
export { type RateLimit, SERVICE_RATE_LIMIT } from './rate-limit.ts';
export type * from './records.ts';
export { DEFAULT_ORDERS, DEFAULT_SORT_KEYS } from './routes.ts';
export { SEED_ARCHIVED_CHANNEL, SEED_CHANNELS, SEED_MEMBERS, SEED_PRIVATE_CHANNEL } from './seed.ts';
export { generateApiKey, startEmulator } from './server.ts';
export {
  APP_NAME,
  type OrgSnapshot,
  OrgState,
  THREAD_TITLE_MAX,
} from './state.ts';
export type {
  Emulator,
  EmulatorEventMap,
  EmulatorOptions,
  FaultEvent,
  HandledEvent,
  ReceivedRequest,
} from './types.ts';
