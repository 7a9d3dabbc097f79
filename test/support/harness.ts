/**
 * The integration harness: the real bot (Bolt HTTP endpoint + BullMQ worker + collab client)
 * wired to the emulator, the local Slack stand-in and the real Redis on 127.0.0.1:6379,
 * under a key prefix of its own that is wiped at the end.
 *
 * Tests drive it only through public seams: signed HTTP requests in; Slack calls recorded by
 * the stand-in and API requests recorded by the emulator out. They wait on events (a job
 * finishing, a Slack call arriving), never on sleeps.
 */
import { randomBytes } from 'node:crypto';
import { type Job, type Queue, QueueEvents, type Worker } from 'bullmq';
import { loadConfig, loadQueueConfig } from '../../src/config.ts';
import { outcomeTold } from '../../src/engine/index.ts';
import { createLogger } from '../../src/logger.ts';
import type { Tracing } from '../../src/ops/tracing.ts';
import { type RunningBot, startBot } from '../../src/runtime.ts';
import { type Emulator, startEmulator } from '../../src/sandbox/emulator/index.ts';
import {
  type EventEnvelopeOptions,
  eventBody,
  interactionBody,
  type RecordedCall,
  type SlackStandIn,
  type SlackStandInOptions,
  type SlackUser,
  type SlashCommandFields,
  slashCommandBody,
  startSlackStandIn,
} from '../../src/sandbox/slack/index.ts';
import { connectRedis, deleteKeys, whenReady } from '../../src/store/redis.ts';
import type { LogCapture } from './log-capture.ts';
import { REDIS_ENV } from './redisTarget.ts';
import { nextSettled, queuedAs, settled } from './settled.ts';
import { type BoltResponse, postToBolt } from './slack-client.ts';
import { standInOptions } from './slack-rules.ts';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const TEAM = 'T_LOCAL';
export const ADA = 'U_ADA';
export const GRACE = 'U_GRACE';
export const SLACK_CHANNEL = 'C_GENERAL';

export interface HarnessOptions {
  /** extra environment for loadConfig (e.g. JOB_ATTEMPTS) */
  env?: Record<string, string>;
  /** start the worker (default true); false runs the web role alone */
  worker?: boolean;
  /** users of the Slack stand-in (default its seed: Ada and Grace) */
  slackUsers?: SlackUser[];
  /**
   * more options of the Slack stand-in: Slack's rules to enforce (`rules`; default from
   * TEST_SLACK_RULES, else none), a clock, a Grid org, channels
   */
  slack?: SlackStandInOptions;
  /** tracing to run the bot with (e.g. to an in-memory exporter) */
  tracing?: Tracing;
  /** where the bot's log lines go (at debug level); absent: the bot logs nothing */
  logs?: LogCapture;
}

export interface Harness {
  emulator: Emulator;
  slack: SlackStandIn;
  bot: RunningBot;
  baseUrl: string;
  signingSecret: string;
  prefix: string;
  /**
   * The settings of another bot process on this harness's Slack stand-in, service, Redis and
   * queue prefix, as the harness's bot has them (its `env` included) but for ROLE and LOG_LEVEL:
   * a worker of its own, say.
   */
  peerEnv: Record<string, string>;
  /** the queue shard of TEAM's operations (the only queue with one shard) */
  queue: Queue;
  /** the worker of that shard; undefined on the web role */
  worker: Worker | undefined;
  queueEvents: QueueEvents;
  /** a signed slash command; answers Bolt's HTTP response */
  command(
    text: string,
    options?: {
      user?: string;
      channel?: string;
      triggerId?: string;
      /** other fields of the command, e.g. a Grid or Slack Connect identity (identities.ts) */
      fields?: Partial<SlashCommandFields>;
    },
  ): Promise<BoltResponse>;
  /** a signed interactivity payload (block_actions, view_submission, shortcuts, block_suggestion) */
  interact(payload: object): Promise<BoltResponse>;
  /** a signed Events API envelope around `event` */
  event(
    event: Record<string, unknown>,
    options?: {
      eventId?: string;
      retryNum?: number;
      eventTime?: number;
      /** other envelope options, e.g. a Grid or Slack Connect identity (identities.ts) */
      envelope?: EventEnvelopeOptions;
    },
  ): Promise<BoltResponse>;
  /** resolves when the job with this id completes or fails, with its final state */
  settled(jobId: string): Promise<'completed' | 'failed'>;
  /** resolves with the id of the job an idempotency key was queued as, once it is queued */
  queuedAs(idempotencyKey: string, teamId?: string): Promise<string>;
  /** resolves when the next job of this operation (and `where`, when given) settles */
  nextSettled(
    operation: string,
    where?: (job: Job) => boolean,
  ): Promise<{ job: Job; state: 'completed' | 'failed' }>;
  /** the first Slack call matching, already made or future */
  slackCall(predicate: (call: RecordedCall) => boolean): Promise<RecordedCall>;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const prefix = `test-${randomBytes(6).toString('hex')}`;
  const signingSecret = `test-signing-${randomBytes(8).toString('hex')}`;
  const emulator = await startEmulator();
  const slack = await startSlackStandIn(
    standInOptions({ ...(options.slackUsers ? { users: options.slackUsers } : {}), ...options.slack }),
  );
  // The settings of the harness's bot, but for its role and logging: a peer process takes them too.
  const peerEnv: Record<string, string> = {
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_BOT_TOKEN: 'xoxb-test-harness',
    SLACK_BOT_USER_ID: 'U_BOT',
    SLACK_API_URL: slack.url,
    COLLAB_API_URL: emulator.url,
    COLLAB_API_KEY: emulator.apiKey,
    COLLAB_TIMEOUT_MS: '2000',
    // Loopback connects take microseconds; a send's window (connect + 2 × answer + 2 s, waited out
    // before a send in doubt is looked for) is then 7 s.
    COLLAB_CONNECT_TIMEOUT_MS: '1000',
    REDIS_URL,
    ...REDIS_ENV,
    QUEUE_PREFIX: prefix,
    PORT: '0',
    JOB_BACKOFF_MS: '50',
    COLLAB_RATE_PAUSE_MS: '50',
    JOB_ATTEMPTS: '4',
    ...options.env,
  };
  const config = loadConfig({
    ...peerEnv,
    ROLE: options.worker === false ? 'web' : 'all',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const logger = options.logs
    ? createLogger({ level: 'debug' }, options.logs.stream)
    : createLogger({ level: config.logLevel });
  const bot = await startBot(config, logger, options.tracing ? { tracing: options.tracing } : {});
  // The store's producer connection fails fast while connecting (no offline queue): tests that
  // enqueue or touch the store straight after start must not race its connect.
  await whenReady(bot.store.redis, 10_000);
  const baseUrl = `http://127.0.0.1:${bot.port}`;
  // The tests' Redis, or the one options.env names (a cluster of the test's own).
  const target = loadQueueConfig({ ...REDIS_ENV, ...options.env }).redis;
  // The harness's workspace is TEAM: its operations are on TEAM's shard.
  const queue = bot.queue.queueFor(TEAM);
  const queueEvents = new QueueEvents(queue.name, { connection: connectRedis(target, 'worker'), prefix });
  await queueEvents.waitUntilReady();
  // Tests wait on many jobs at once (a listener pair each, removed when it settles).
  queueEvents.setMaxListeners(0);

  // A slash command's outcome is told after its job completes: settled once it is told.
  const told = (jobId: string) => Promise.all(bot.workers.map((worker) => outcomeTold(worker, jobId)));
  let triggers = 0;
  return {
    emulator,
    slack,
    bot,
    baseUrl,
    signingSecret,
    prefix,
    peerEnv,
    queue,
    worker: bot.workers[bot.queue.queues.indexOf(queue)],
    queueEvents,
    command(text, opts = {}) {
      triggers += 1;
      const body = slashCommandBody({
        command: config.slack.slashCommand,
        text,
        user_id: opts.user ?? ADA,
        user_name: 'ada',
        channel_id: opts.channel ?? SLACK_CHANNEL,
        channel_name: 'general',
        team_id: TEAM,
        response_url: slack.responseUrl(`cmd-${triggers}`),
        trigger_id: opts.triggerId ?? `trigger-${prefix}-${triggers}`,
        ...opts.fields,
      });
      // Slack issues the command's trigger_id and response_url now: their lifetimes start.
      slack.issue(Object.fromEntries(new URLSearchParams(body)));
      return postToBolt(baseUrl, signingSecret, 'command', body);
    },
    interact(payload) {
      slack.issue(payload);
      return postToBolt(baseUrl, signingSecret, 'interaction', interactionBody(payload));
    },
    event(event, opts = {}) {
      slack.issue({ event });
      const body = eventBody(event as { type: string }, {
        team_id: TEAM,
        ...opts.envelope,
        ...(opts.eventId ? { event_id: opts.eventId } : {}),
        ...(opts.eventTime === undefined ? {} : { event_time: opts.eventTime }),
      });
      const headers: Record<string, string> =
        opts.retryNum === undefined
          ? {}
          : { 'x-slack-retry-num': String(opts.retryNum), 'x-slack-retry-reason': 'http_timeout' };
      return postToBolt(baseUrl, signingSecret, 'event', body, headers);
    },
    settled: (jobId) => settled(queueEvents, queue, jobId, told),
    queuedAs: (idempotencyKey, teamId = TEAM) =>
      queuedAs(queueEvents, () => bot.queue.jobIdOf(teamId, idempotencyKey)),
    nextSettled: (operation, where) => nextSettled(queueEvents, queue, operation, where, told),
    slackCall: (predicate) => slack.waitFor(predicate),
    async close() {
      await bot.stop();
      await queueEvents.close();
      const redis = connectRedis(target, 'producer');
      await whenReady(redis, 10_000);
      await deleteKeys(redis, `${prefix}:*`);
      redis.disconnect();
      await emulator.close();
      await slack.close();
    },
  };
}
