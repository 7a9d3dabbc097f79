/** What the sandbox hands the console. */
import type { EventEmitter } from 'node:events';
import type { Logger } from '../../logger.ts';
import type { EmulatorEventMap } from '../emulator/types.ts';
import type { SlackChannel, SlackStandIn, SlackUser } from '../slack/types.ts';

export interface ConsoleOptions {
  port?: number;
  host?: string;
  slack: SlackStandIn;
  /** the bot's Slack endpoint, `http://…/slack/events` */
  botUrl: string;
  signingSecret: string;
  command: string;
  teamId: string;
  botUserId: string;
  users: SlackUser[];
  channels: SlackChannel[];
  /** the emulator, for the state panel (absent with a real collaboration API) */
  emulatorUrl?: string;
  emulatorEvents?: EventEmitter<EmulatorEventMap>;
  /** the app's unfurl domains: a message with a link under one sends `link_shared`, as Slack does */
  unfurlDomains?: string[];
  logger: Logger;
}
