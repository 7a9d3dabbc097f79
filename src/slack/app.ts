/**
 * Builds the Bolt app: HTTP mode (signing secret, endpoint `/slack/events`) or Socket Mode
 * (app token), and registers every listener. The app never waits on the collaboration API
 * before acking, except to open a modal and to load picker options.
 */
import { App, type Authorize, LogLevel } from '@slack/bolt';
import type { SlackConfig } from '../config.ts';
import type { OperationsQueue } from '../jobs/queue.ts';
import type { Logger } from '../logger.ts';
import type { Store } from '../store/index.ts';
import type { Workspaces } from '../store/workspaces.ts';
import { registerListeners } from './listeners/index.ts';

export interface SlackAppDeps {
  slack: SlackConfig;
  queue: OperationsQueue;
  store: Store;
  workspaces: Workspaces;
  logger: Logger;
  /** HTTP mode: the port `start()` listens on (0 = a free port) */
  port?: number;
  /** how long option lists (pickers) wait on the collaboration API; default 1500 ms */
  optionsTimeoutMs?: number;
}

/** What listeners are given, beside Bolt's own arguments. */
export interface ListenerDeps {
  command: string;
  queue: OperationsQueue;
  store: Store;
  workspaces: Workspaces;
  logger: Logger;
  /** how long option lists (pickers) wait on the collaboration API (`COLLAB_OPTIONS_TIMEOUT_MS`) */
  optionsTimeoutMs: number;
}

/** Slack allows 3 s for options; the API gets this much of it unless configured. */
export const DEFAULT_OPTIONS_TIMEOUT_MS = 1500;

export function buildSlackApp(deps: SlackAppDeps): App {
  const { slack, logger } = deps;
  const clientOptions = {
    ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
    timeout: 5000,
    retryConfig: { retries: 1, factor: 1, minTimeout: 200, maxTimeout: 1000 },
  };
  const socketMode = slack.appToken !== undefined;
  const app = new App({
    authorize: singleWorkspaceAuthorize(slack),
    ...(socketMode
      ? { socketMode: true, appToken: slack.appToken! }
      : { signingSecret: slack.signingSecret!, endpoints: '/slack/events' }),
    ...(deps.port !== undefined && !socketMode ? { port: deps.port } : {}),
    clientOptions,
    logLevel: LogLevel.ERROR,
    logger: boltLogger(logger),
  });
  app.error(async (error) => {
    logger.error({ err: error }, 'unhandled listener error');
  });
  registerListeners(app, {
    command: slack.slashCommand,
    queue: deps.queue,
    store: deps.store,
    workspaces: deps.workspaces,
    logger,
    optionsTimeoutMs: deps.optionsTimeoutMs ?? DEFAULT_OPTIONS_TIMEOUT_MS,
  });
  return app;
}

/**
 * Single-workspace authorization from the bot token. The bot user id comes from configuration,
 * or from one `auth.test` on the first request (not at construction, so start-up never waits on Slack).
 */
function singleWorkspaceAuthorize(slack: SlackConfig): Authorize<boolean> {
  let identity: Promise<{ botUserId: string; botId?: string }> | undefined;
  const lookup = async () => {
    const { WebClient } = await import('@slack/web-api');
    const client = new WebClient(slack.botToken, slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {});
    const auth = await client.auth.test();
    return { botUserId: String(auth.user_id ?? ''), ...(auth.bot_id ? { botId: String(auth.bot_id) } : {}) };
  };
  return async () => {
    if (slack.botUserId) return { botToken: slack.botToken, botUserId: slack.botUserId };
    identity ??= lookup().catch((error: unknown) => {
      identity = undefined;
      throw error;
    });
    const { botUserId, botId } = await identity;
    return { botToken: slack.botToken, botUserId, ...(botId ? { botId } : {}) };
  };
}

/** Bolt's logger interface, writing through pino. */
function boltLogger(logger: Logger) {
  const child = logger.child({ component: 'bolt' });
  let level = LogLevel.ERROR;
  return {
    debug: (...msg: unknown[]) => child.debug(msg.map(String).join(' ')),
    info: (...msg: unknown[]) => child.info(msg.map(String).join(' ')),
    warn: (...msg: unknown[]) => child.warn(msg.map(String).join(' ')),
    error: (...msg: unknown[]) => child.error(msg.map(String).join(' ')),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
