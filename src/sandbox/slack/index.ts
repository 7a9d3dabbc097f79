export { nextTs } from './ids.ts';
export { OTHER_INSTALLATION, SUPPORTED_METHODS } from './methods.ts';
export * from './payloads.ts';
export { startSlackStandIn } from './server.ts';
export * from './sign.ts';
export type * from './types.ts';
export { defaultUsers, makeSlackUser, type SlackUserSeed } from './users.ts';
