/**
 * Builds the Bolt app: HTTP mode (signing secret, endpoint `/slack/events`) or Socket Mode
 * (app token), and registers every listener. The app never waits on the collaboration API
 * before acking, except to open a modal and to load picker options.
 */
import {
  App,
  type AppOptions,
  type Authorize,
  type CustomRoute,
  HTTPReceiver,
  type InstallationStore,
  LogLevel,
  type StateStore,
} from '@slack/bolt';
import type { InstallConfig, SlackConfig } from '../config.ts';
import { type Logger, scrubText } from '../logger.ts';
import type { OperationsQueue } from '../operations/queue.ts';
import type { Store } from '../store/index.ts';
import type { Workspaces } from '../workspaces/workspaces.ts';
import { authoriseWorkspace } from './listeners/authorised.ts';
import type { ListenerSettings } from './listeners/deps.ts';
import { registerListeners } from './listeners/index.ts';
import { answerEveryRequest, refuseMalformed } from './malformed.ts';
import { BOT_SCOPES } from './scopes.ts';
import { refuseFutureTimestamps } from './timestamps.ts';

/** Slack's payloads are small; anything bigger is refused with 413 before it is parsed. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
export const EVENTS_PATH = '/slack/events';
export const INSTALL_PATH = '/slack/install';
export const REDIRECT_PATH = '/slack/oauth_redirect';

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
  /** multi-workspace mode: OAuth install through Bolt's installer, installations in this store */
  install?:
    | { config: InstallConfig; installationStore: InstallationStore; stateStore?: StateStore | undefined }
    | undefined;
  /** extra HTTP routes beside Slack's (health, readiness, metrics) */
  customRoutes?: CustomRoute[];
  /** called when a Slack request is acked (metrics) */
  onAck?: (surface: string, seconds: number) => void;
  settings?: ListenerSettings;
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
  const install = deps.install;
  const installer = install
    ? {
        clientId: install.config.clientId,
        clientSecret: install.config.clientSecret,
        stateSecret: install.config.stateSecret,
        scopes: [...BOT_SCOPES],
        installationStore: install.installationStore,
      }
    : undefined;
  const installerOptions = {
    installPath: INSTALL_PATH,
    redirectUriPath: REDIRECT_PATH,
    // GET /slack/install redirects straight to Slack's consent screen (state set in a cookie).
    directInstall: true,
    // A state store of our own (signed, used once) replaces Bolt's (signed, reusable).
    ...(install?.stateStore ? { stateStore: install.stateStore } : {}),
    clientOptions,
  };
  const bolt = boltLogger(logger);
  // Requests are always verified: the signing secret is required and signatureVerification is
  // never turned off (test/slack/requests.test.ts). Bolt rejects timestamps older than 5 minutes,
  // timestamps.ts those more than 5 minutes ahead.
  const transport: Partial<AppOptions> = socketMode
    ? {
        socketMode: true,
        appToken: slack.appToken!,
        ...(installer ? { ...installer, installerOptions: { ...installerOptions, port: deps.port } } : {}),
        ...(deps.customRoutes?.length
          ? { customRoutes: deps.customRoutes, installerOptions: { ...installerOptions, port: deps.port } }
          : {}),
      }
    : { receiver: httpReceiver() };
  function httpReceiver(): HTTPReceiver {
    const receiver = new HTTPReceiver({
      signingSecret: slack.signingSecret!,
      endpoints: EVENTS_PATH,
      ...(deps.port !== undefined ? { port: deps.port } : {}),
      customRoutes: deps.customRoutes ?? [],
      bodyLimit: BODY_LIMIT_BYTES,
      logger: bolt,
      ...(installer ? { ...installer, installerOptions } : {}),
    });
    const malformed = {
      endpoint: EVENTS_PATH,
      signingSecret: slack.signingSecret!,
      bodyLimit: BODY_LIMIT_BYTES,
    };
    receiver.requestListener = refuseFutureTimestamps(
      refuseMalformed(receiver.requestListener, { ...malformed, logger }),
      EVENTS_PATH,
    );
    return receiver;
  }
  const app = new App({
    // Multi-workspace: Bolt's installer authorizes from the installation store.
    ...(install ? {} : { authorize: singleWorkspaceAuthorize(slack) }),
    ...transport,
    clientOptions,
    // No listener keeps conversation state: Bolt's in-memory store would be read on every request.
    convoStore: false,
    logLevel: LogLevel.ERROR,
    logger: bolt,
  });
  app.error(async (error) => {
    logger.error({ err: error }, 'unhandled listener error');
  });
  const onAck = deps.onAck;
  answerEveryRequest(app, logger, onAck ? (body, seconds) => onAck(surfaceOf(body), seconds) : undefined);
  // Before every listener: the workspace each request acts for is the one Bolt authorised.
  app.use(authoriseWorkspace(install ? deps.store.installations : undefined, logger));
  registerListeners(app, {
    command: slack.slashCommand,
    queue: deps.queue,
    store: deps.store,
    workspaces: deps.workspaces,
    logger,
    optionsTimeoutMs: deps.optionsTimeoutMs ?? DEFAULT_OPTIONS_TIMEOUT_MS,
    ...(deps.settings ? { settings: deps.settings } : {}),
  });
  return app;
}

/** The surface a Slack request comes from, for metrics. */
export function surfaceOf(body: Record<string, unknown>): string {
  if (typeof body.command === 'string') return 'command';
  switch (body.type) {
    case 'event_callback':
      return 'event';
    case 'block_actions':
    case 'interactive_message':
      return 'action';
    case 'view_submission':
    case 'view_closed':
      return 'view';
    case 'shortcut':
    case 'message_action':
      return 'shortcut';
    case 'block_suggestion':
      return 'options';
    default:
      return 'other';
  }
}

/**
 * Single-workspace authorization from the bot token. The bot user id comes from configuration,
 * or from one `auth.test` on the first request (not at construction, so start-up never waits on Slack).
 */
function singleWorkspaceAuthorize(slack: SlackConfig): Authorize<boolean> {
  const botToken = slack.botToken;
  if (!botToken) throw new TypeError('single-workspace mode needs SLACK_BOT_TOKEN');
  let identity: Promise<{ botUserId: string; botId?: string }> | undefined;
  const lookup = async () => {
    const { WebClient } = await import('@slack/web-api');
    const client = new WebClient(botToken, slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {});
    const auth = await client.auth.test();
    return { botUserId: String(auth.user_id ?? ''), ...(auth.bot_id ? { botId: String(auth.bot_id) } : {}) };
  };
  return async () => {
    if (slack.botUserId) return { botToken, botUserId: slack.botUserId };
    identity ??= lookup().catch((error: unknown) => {
      identity = undefined;
      throw error;
    });
    const { botUserId, botId } = await identity;
    return { botToken, botUserId, ...(botId ? { botId } : {}) };
  };
}

/** Bolt's logger interface, writing through pino. */
function boltLogger(logger: Logger) {
  const child = logger.child({ component: 'bolt' });
  let level = LogLevel.ERROR;
  // Bolt logs strings, which field redaction cannot reach: tokens and secrets are masked here.
  const text = (msg: unknown[]) => scrubText(msg.map(String).join(' '));
  return {
    debug: (...msg: unknown[]) => child.debug(text(msg)),
    info: (...msg: unknown[]) => child.info(text(msg)),
    warn: (...msg: unknown[]) => child.warn(text(msg)),
    error: (...msg: unknown[]) => child.error(text(msg)),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
