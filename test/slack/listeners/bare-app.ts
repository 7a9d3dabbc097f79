/**
 * The Bolt app alone, built by `buildSlackApp` exactly as the bot builds it, with chosen
 * dependencies: a queue whose Redis is unreachable, or a short options timeout. Driven through
 * the same public seam as the harness: signed HTTP requests.
 */
import { randomBytes } from 'node:crypto';
import type { App } from '@slack/bolt';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/logger.ts';
import { createOperationsQueue, type OperationsQueue } from '../../../src/operations/queue.ts';
import type { SlackStandIn } from '../../../src/sandbox/slack/types.ts';
import { buildSlackApp } from '../../../src/slack/app.ts';
import { createStore, type Store } from '../../../src/store/index.ts';
import { connectRedis, deleteKeys, type Redis } from '../../../src/store/redis.ts';
import { singleWorkspace, type Workspaces } from '../../../src/workspaces/workspaces.ts';
import { REDIS_URL } from '../../support/harness.ts';
import { boltBaseUrl } from '../../support/slack-client.ts';

/** Nothing listens on port 1: connections are refused at once. */
export const UNREACHABLE_REDIS_URL = 'redis://127.0.0.1:1';

export interface BareApp {
  baseUrl: string;
  signingSecret: string;
  store: Store;
  queue: OperationsQueue;
  close(): Promise<void>;
}

export async function startBareApp(options: {
  slack: SlackStandIn;
  collabUrl: string;
  collabKey: string;
  /** Redis of the queue; default the test Redis */
  queueRedisUrl?: string;
  optionsTimeoutMs?: number;
}): Promise<BareApp> {
  const prefix = `test-bare-${randomBytes(6).toString('hex')}`;
  const signingSecret = `bare-${randomBytes(8).toString('hex')}`;
  const config = loadConfig({
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_BOT_TOKEN: 'xoxb-test-bare',
    SLACK_BOT_USER_ID: 'U_BOT',
    SLACK_API_URL: options.slack.url,
    COLLAB_API_URL: options.collabUrl,
    COLLAB_API_KEY: options.collabKey,
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'silent',
  });
  const logger = createLogger({ level: config.logLevel });
  const storeRedis: Redis = connectRedis(REDIS_URL, 'producer');
  const queueRedis: Redis = options.queueRedisUrl
    ? connectRedis(options.queueRedisUrl, 'producer')
    : storeRedis;
  const store = createStore(storeRedis, { prefix });
  const queue = createOperationsQueue(queueRedis, { prefix, ...config.worker });
  const workspaces: Workspaces = singleWorkspace(config);
  const app: App = buildSlackApp({
    slack: config.slack,
    queue,
    store,
    workspaces,
    logger,
    port: 0,
    ...(options.optionsTimeoutMs === undefined ? {} : { optionsTimeoutMs: options.optionsTimeoutMs }),
  });
  const server = (await app.start(0)) as unknown as import('node:net').Server;
  return {
    baseUrl: boltBaseUrl(server),
    signingSecret,
    store,
    queue,
    async close() {
      await app.stop().catch(() => {});
      await workspaces.close();
      if (queueRedis === storeRedis) await queue.close().catch(() => {});
      await deleteKeys(storeRedis, `${prefix}:*`);
      storeRedis.disconnect();
      queueRedis.disconnect();
    },
  };
}
