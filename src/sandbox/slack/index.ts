export * from './identities.ts';
export { nextTs } from './ids.ts';
export { OTHER_INSTALLATION, SUPPORTED_METHODS } from './methods.ts';
export {
  CONNECT_PARTNER,
  GRID_ORG,
  gridUsers,
  ORG_INSTALLATION,
  partnerUser,
} from './organisations.ts';
export * from './payloads.ts';
export type * from './rules.ts';
export {
  describeRules,
  KIND_RULES,
  parseRulesSetting,
  resolveRules,
  SLACK_NUMBERS,
  SLACK_RULE_NAMES,
} from './rules.ts';
export { startSlackStandIn } from './server.ts';
export * from './sign.ts';
export type * from './types.ts';
export { defaultUsers, makeSlackUser, type SlackUserSeed } from './users.ts';
