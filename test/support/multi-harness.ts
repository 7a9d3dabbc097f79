/**
 * The integration harness of multi-workspace mode: the real bot with OAuth install (Bolt's
 * installer, installations in Redis), two emulator organisations (two API keys), the Slack
 * stand-in, real Redis under a prefix of its own, and the logs captured.
 *
 * Workspaces: T_OTHER is installed through the OAuth round trip ({@link MultiHarness.install});
 * T_LOCAL is stored directly (the stand-in issues OAuth tokens for T_OTHER only).
 */
import { randomBytes } from 'node:crypto';
import { type Job, QueueEvents } from 'bullmq';
import type { Resolve } from '../../src/collab/outbound.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { ACTIONS, INPUTS, VIEWS } from '../../src/render/ids.ts';
import { type RunningBot, startBot } from '../../src/runtime.ts';
import { type Emulator, startEmulator } from '../../src/sandbox/emulator/index.ts';
import {
  blockActions,
  eventBody,
  interactionBody,
  OTHER_INSTALLATION,
  type SlackStandIn,
  type SlackStandInOptions,
  slashCommandBody,
  startSlackStandIn,
  viewSubmission,
} from '../../src/sandbox/slack/index.ts';
import { createCipher } from '../../src/store/crypto.ts';
import { installationStore } from '../../src/store/installations.ts';
import { connectRedis, deleteKeys, type Redis, whenReady } from '../../src/store/redis.ts';
import { REDIS_URL } from './harness.ts';
import { captureLogs, type LogCapture } from './log-capture.ts';
import { nextSettled } from './settled.ts';
import { type BoltResponse, postToBolt } from './slack-client.ts';
import { standInOptions } from './slack-rules.ts';

export const LOCAL_TEAM = 'T_LOCAL';
export const OTHER_TEAM = OTHER_INSTALLATION.teamId;
export const ADA = 'U_ADA';
export const GRACE = 'U_GRACE';
export const LOCAL_TOKEN = 'xoxb-test-harness';

export interface MultiHarness {
  emulator: Emulator;
  slack: SlackStandIn;
  bot: RunningBot;
  baseUrl: string;
  prefix: string;
  signingSecret: string;
  secrets: { clientSecret: string; stateSecret: string; encryptionKey: string };
  logs: LogCapture;
  redis: Redis;
  queueEvents: QueueEvents;
  /** the OAuth round trip for T_OTHER: install page, Slack's redirect back with `good-code` */
  install(): Promise<{ installLocation: string; redirect: Response }>;
  /** stores T_LOCAL's installation (bot token xoxb-test-harness) */
  installLocal(): Promise<void>;
  /** Connect button on App Home, then the modal's submission; answers the submission's response */
  connect(team: string, apiKey: string, options?: { user?: string; baseUrl?: string }): Promise<BoltResponse>;
  command(team: string, text: string, options?: { user?: string; channel?: string }): Promise<BoltResponse>;
  interact(payload: object): Promise<BoltResponse>;
  event(team: string, event: { type: string }): Promise<BoltResponse>;
  nextSettled(operation: string): Promise<{ job: Job; state: 'completed' | 'failed' }>;
  close(): Promise<void>;
}

export async function startMultiHarness(
  options: {
    env?: Record<string, string>;
    resolve?: Resolve;
    slack?: SlackStandInOptions;
    /** a Redis of the test's own (default the tests' shared one) */
    redisUrl?: string;
  } = {},
): Promise<MultiHarness> {
  const redisUrl = options.redisUrl ?? REDIS_URL;
  const prefix = `test-multi-${randomBytes(6).toString('hex')}`;
  const signingSecret = `test-signing-${randomBytes(8).toString('hex')}`;
  const secrets = {
    clientSecret: `test-client-secret-${randomBytes(8).toString('hex')}`,
    stateSecret: `test-state-${randomBytes(8).toString('hex')}`,
    encryptionKey: randomBytes(32).toString('hex'),
  };
  const keyA = `test-key-a-${randomBytes(8).toString('hex')}`;
  const keyB = `test-key-b-${randomBytes(8).toString('hex')}`;
  const emulator = await startEmulator({ apiKeys: [keyA, keyB] });
  const slack = await startSlackStandIn(standInOptions(options.slack ?? {}));
  const config = loadConfig({
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_CLIENT_ID: 'test-client-id',
    SLACK_CLIENT_SECRET: secrets.clientSecret,
    SLACK_STATE_SECRET: secrets.stateSecret,
    ENCRYPTION_KEY: secrets.encryptionKey,
    SLACK_API_URL: slack.url,
    NODE_ENV: 'test',
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    PORT: '0',
    COLLAB_TIMEOUT_MS: '2000',
    JOB_BACKOFF_MS: '50',
    JOB_ATTEMPTS: '3',
    LOG_LEVEL: 'debug',
    // The emulator listens on loopback, which the outbound guard refuses unless allowed.
    COLLAB_ALLOWED_HOSTS: '127.0.0.1',
    ...options.env,
  });
  const logs = captureLogs();
  const logger = createLogger({ level: config.logLevel }, logs.stream);
  const bot = await startBot(config, logger, options.resolve ? { resolve: options.resolve } : {});
  const baseUrl = `http://127.0.0.1:${bot.port}`;
  const redis = connectRedis(redisUrl, 'producer');
  await whenReady(redis);
  const queueEvents = new QueueEvents('operations', {
    connection: connectRedis(redisUrl, 'worker'),
    prefix,
  });
  await queueEvents.waitUntilReady();
  const installations = installationStore(
    redis,
    { prefix },
    createCipher({ encryptionKey: secrets.encryptionKey }),
  );

  let triggers = 0;
  const interact = (payload: object) => {
    slack.issue(payload);
    return postToBolt(baseUrl, signingSecret, 'interaction', interactionBody(payload));
  };

  return {
    emulator,
    slack,
    bot,
    baseUrl,
    prefix,
    signingSecret,
    secrets,
    logs,
    redis,
    queueEvents,
    async install() {
      const start = await fetch(`${baseUrl}/slack/install`, { redirect: 'manual' });
      const installLocation = start.headers.get('location') ?? '';
      const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const state = new URL(installLocation).searchParams.get('state') ?? '';
      const redirect = await fetch(
        `${baseUrl}/slack/oauth_redirect?code=${OTHER_INSTALLATION.code}&state=${encodeURIComponent(state)}`,
        { headers: { cookie }, redirect: 'manual' },
      );
      return { installLocation, redirect };
    },
    async installLocal() {
      await installations.storeInstallation({
        team: { id: LOCAL_TEAM, name: 'Local Workspace' },
        enterprise: undefined,
        user: { id: ADA, token: undefined, scopes: undefined },
        bot: { id: 'B_LOCAL', userId: 'U_BOT', token: LOCAL_TOKEN, scopes: ['commands'] },
        tokenType: 'bot',
        isEnterpriseInstall: false,
        appId: 'A_LOCAL',
        authVersion: 'v2',
      });
    },
    async connect(team, apiKey, opts = {}) {
      const user = opts.user ?? ADA;
      const click = await interact(
        blockActions({
          user,
          team_id: team,
          actions: [{ action_id: ACTIONS.connect }],
          view: { id: 'V_HOME', callback_id: '', type: 'home' },
        }),
      );
      if (click.status !== 200) throw new Error(`connect click answered ${click.status}`);
      return interact(
        viewSubmission({
          user,
          team_id: team,
          view: {
            id: `V_CONNECT_${team}`,
            callback_id: VIEWS.connect,
            state: {
              values: {
                [INPUTS.baseUrl.block]: {
                  [INPUTS.baseUrl.action]: { type: 'url_text_input', value: opts.baseUrl ?? emulator.url },
                },
                [INPUTS.apiKey.block]: {
                  [INPUTS.apiKey.action]: { type: 'plain_text_input', value: apiKey },
                },
              },
            },
          },
        }),
      );
    },
    command(team, text, opts = {}) {
      triggers += 1;
      const body = slashCommandBody({
        command: '/collab',
        text,
        user_id: opts.user ?? ADA,
        channel_id: opts.channel ?? 'C_GENERAL',
        team_id: team,
        response_url: slack.responseUrl(`${team}-cmd-${triggers}`),
        trigger_id: `trigger-${prefix}-${triggers}`,
      });
      slack.issue(Object.fromEntries(new URLSearchParams(body)));
      return postToBolt(baseUrl, signingSecret, 'command', body);
    },
    interact,
    event(team, event) {
      slack.issue({ event });
      return postToBolt(baseUrl, signingSecret, 'event', eventBody(event, { team_id: team }));
    },
    nextSettled: (operation) => nextSettled(queueEvents, bot.queue.queue, operation),
    async close() {
      await bot.stop();
      await queueEvents.close();
      await deleteKeys(redis, `${prefix}:*`);
      redis.disconnect();
      await emulator.close();
      await slack.close();
    },
  };
}

/** Every value stored under a prefix, whatever its Redis type, as text. */
export async function allValues(redis: Redis, prefix: string): Promise<Array<{ key: string; text: string }>> {
  const out: Array<{ key: string; text: string }> = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    for (const key of found) {
      const type = await redis.type(key);
      let parts: string[] = [];
      if (type === 'string') parts = [(await redis.get(key)) ?? ''];
      else if (type === 'hash') parts = Object.entries(await redis.hgetall(key)).flat();
      else if (type === 'list') parts = await redis.lrange(key, 0, -1);
      else if (type === 'set') parts = await redis.smembers(key);
      else if (type === 'zset') parts = await redis.zrange(key, '0', '-1');
      else if (type === 'stream')
        parts = (await redis.xrange(key, '-', '+')).flatMap(([id, fields]) => [id, ...fields]);
      out.push({ key, text: parts.join('\n') });
    }
  } while (cursor !== '0');
  return out;
}
