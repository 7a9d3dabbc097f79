/**
 * Sandbox mode ("try it without Slack"): in one process, the collaboration API emulator, the local
 * Slack stand-in, the bot (web + worker, through startBot like any deployment) and the console
 * that plays Slack in a browser. Parts that are really configured are used instead of emulated
 * (see mode.ts). main.ts calls {@link runSandbox}; the browser test calls {@link startSandbox}.
 */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../config.ts';
import { createLogger, type Logger } from '../logger.ts';
import { installSafetyNet } from '../ops/processSafety.ts';
import { type RunningBot, startBot } from '../runtime.ts';
import { connectRedis, deleteKeys, whenReady } from '../store/redis.ts';
import { type SandboxConsole, startConsole } from './console/server.ts';
import { type Emulator, startEmulator } from './emulator/index.ts';
import { describePlan, type SandboxPlan } from './mode.ts';
import { RedisMissingError, resolveRedis } from './redis.ts';
import {
  defaultUsers,
  parseRulesSetting,
  type SlackChannel,
  type SlackRulesInput,
  type SlackStandIn,
  type SlackUser,
  startSlackStandIn,
} from './slack/index.ts';

type Env = Record<string, string | undefined>;

/** Redis keys of sandbox runs start with this, never with a deployment's prefix. */
export const SANDBOX_PREFIX = 'sandbox';
export const SANDBOX_TEAM = 'T_LOCAL';
export const SANDBOX_BOT_USER = 'U0COLLAB';

/**
 * Ada and Grace, as the stand-in seeds them, with Slack-shaped ids (Slack ids have no `_`, and the
 * command grammar reads mentions as Slack writes them). Their emails are members of the emulator's seed.
 */
export const SANDBOX_USERS: SlackUser[] = defaultUsers(SANDBOX_TEAM, { ada: 'U0ADA', grace: 'U0GRACE' });

/**
 * Polling intervals of sandbox runs, so a demo feels live (a reply in a DM thread is back in
 * Slack within seconds); the environment's own values win.
 */
export const SANDBOX_POLLING = {
  THREAD_POLL_ACTIVE_MS: '2000',
  FEED_POLL_INTERVAL_MS: '10000',
} as const;

/**
 * Slack's rules the sandbox's stand-in enforces unless SLACK_STANDIN_RULES says otherwise
 * (`strict`, `off`, or rule names separated by commas). The lifetimes are on: a person's pace
 * never meets them, and the console then answers as Slack would. Rate limits are off: a person
 * changing a few posts quickly would already meet the per-channel posting limit, and the bot
 * does not yet wait out a refusal, so the console would show missing notes and stale cards.
 */
export const SANDBOX_SLACK_RULES: SlackRulesInput = {
  rateLimits: false,
  responseUrlLifetime: true,
  triggerIdLifetime: true,
  workflowTokenLifetime: true,
};

export const SANDBOX_CHANNELS: SlackChannel[] = [
  { id: 'C0GENERAL', name: 'general', is_private: false, is_member: true },
  { id: 'C0RANDOM', name: 'random', is_private: false, is_member: true },
];

export interface SandboxOptions {
  /** what is configured; default process.env */
  env?: Env;
  plan: SandboxPlan;
  /** the console's port with local Slack, the bot's with real Slack; default PORT, else 3000 */
  port?: number;
  /** Redis key prefix; default {@link SANDBOX_PREFIX} */
  prefix?: string;
  logger?: Logger;
}

export interface Sandbox {
  plan: SandboxPlan;
  /** the console with local Slack; the bot's Slack endpoint with real Slack */
  url: string;
  /** the one line `npm start` prints */
  line: string;
  redisUrl: string;
  prefix: string;
  signingSecret: string;
  bot: RunningBot;
  slack: SlackStandIn | undefined;
  emulator: Emulator | undefined;
  console: SandboxConsole | undefined;
  stop(): Promise<void>;
}

function hostOf(url: string | undefined): string[] {
  if (url === undefined) return [];
  try {
    return [new URL(url).hostname];
  } catch {
    return [];
  }
}

function portOf(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(value)}`);
  }
  return port;
}

/** {@link SANDBOX_POLLING}, except the variables the environment sets (not blank). */
function sandboxPolling(env: Env): Env {
  const polling: Env = {};
  for (const [name, value] of Object.entries(SANDBOX_POLLING)) {
    polling[name] = env[name]?.trim() ? env[name] : value;
  }
  return polling;
}

/** Deletes the keys of earlier sandbox runs: their Slack messages and posts are gone with the process. */
async function forgetEarlierRuns(url: string, prefix: string): Promise<void> {
  const redis = connectRedis(url, 'producer');
  try {
    await whenReady(redis, 3000).catch(() => {
      throw new Error(
        `Redis at ${url} does not answer. Check REDIS_URL, or unset it to let the sandbox find one.`,
      );
    });
    await deleteKeys(redis, `${prefix}:*`);
  } finally {
    redis.disconnect();
  }
}

/** Starts every part of the plan; on a failure, stops what had started and rethrows. */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const env = options.env ?? process.env;
  const { plan } = options;
  const prefix = options.prefix ?? SANDBOX_PREFIX;
  const logger = options.logger ?? createLogger({ level: env.LOG_LEVEL ?? 'warn' });
  const port = options.port ?? portOf(env.PORT, 3000);
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse().splice(0)) await stop().catch(() => {});
  };

  try {
    const redis = await resolveRedis(env);
    stops.push(() => redis.stop());
    await forgetEarlierRuns(redis.url, prefix);

    let emulator: Emulator | undefined;
    if (plan.collab === 'emulator') {
      emulator = await startEmulator({ seed: true });
      const started = emulator;
      stops.push(() => started.close());
    }

    let slack: SlackStandIn | undefined;
    if (plan.slack === 'local') {
      slack = await startSlackStandIn({
        users: SANDBOX_USERS,
        channels: SANDBOX_CHANNELS,
        teamId: SANDBOX_TEAM,
        botUserId: SANDBOX_BOT_USER,
        rules: parseRulesSetting(env.SLACK_STANDIN_RULES, SANDBOX_SLACK_RULES),
      });
      const started = slack;
      stops.push(() => started.close());
    }

    const signingSecret = slack
      ? `sandbox-${randomBytes(16).toString('hex')}`
      : (env.SLACK_SIGNING_SECRET ?? '');
    const botEnv: Env = {
      ...env,
      ROLE: 'all',
      REDIS_URL: redis.url,
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
      ...sandboxPolling(env),
      ...(slack
        ? {
            SLACK_BOT_TOKEN: 'xoxb-sandbox-local',
            SLACK_SIGNING_SECRET: signingSecret,
            SLACK_APP_TOKEN: undefined,
            SLACK_BOT_USER_ID: SANDBOX_BOT_USER,
            SLACK_API_URL: slack.url,
            // The console listens on PORT; the bot only needs a port the console knows.
            PORT: '0',
          }
        : { PORT: String(port) }),
      ...(emulator
        ? { COLLAB_API_URL: emulator.url, COLLAB_API_KEY: emulator.apiKey, ALLOW_INSECURE_COLLAB_URL: 'true' }
        : {}),
    };
    const loaded = loadConfig(botEnv);
    // With the emulated service everything is gone at exit: a Redis without persistence is no news.
    const config = emulator
      ? { ...loaded, redisDurability: { ...loaded.redisDurability, volatileByDesign: true } }
      : loaded;
    const bot = await startBot(config, logger);
    stops.push(() => bot.stop());

    let console: SandboxConsole | undefined;
    let url: string;
    if (slack) {
      if (bot.port === undefined) throw new Error('the bot did not start an HTTP endpoint');
      console = await startConsole({
        port,
        slack,
        botUrl: `http://127.0.0.1:${bot.port}/slack/events`,
        signingSecret,
        command: config.slack.slashCommand,
        teamId: SANDBOX_TEAM,
        botUserId: SANDBOX_BOT_USER,
        users: SANDBOX_USERS,
        channels: SANDBOX_CHANNELS,
        ...(emulator ? { emulatorUrl: emulator.url, emulatorEvents: emulator.events } : {}),
        // The service's links are the app's unfurl domain here, as slack-manifest.yml says to set it.
        unfurlDomains: hostOf(emulator?.url ?? config.collab.baseUrl),
        logger,
      });
      const started = console;
      stops.push(() => started.close());
      url = console.url;
    } else {
      url =
        config.slack.appToken !== undefined
          ? 'Socket Mode'
          : `http://127.0.0.1:${bot.port ?? port}/slack/events`;
    }

    const redisNote =
      redis.source === 'private'
        ? `private Redis ${redis.url.slice('redis://'.length)}`
        : `Redis ${redisLabel(redis.url)}`;
    const what = describePlan(plan);
    const line = slack
      ? `collab-slack sandbox: open ${url} — ${what} (${redisNote})`
      : `collab-slack sandbox: Slack requests to ${url} — ${what} at ${emulator?.url ?? '?'} (${redisNote})`;

    return {
      plan,
      url,
      line,
      redisUrl: redis.url,
      prefix,
      signingSecret,
      bot,
      slack,
      emulator,
      console,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** host:port of a Redis URL, without credentials. */
function redisLabel(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'from REDIS_URL';
  }
}

/** `npm start` in sandbox mode: start, print the line, stop cleanly on SIGINT/SIGTERM. */
export async function runSandbox(plan: SandboxPlan, env: Env = process.env): Promise<void> {
  let sandbox: Sandbox;
  const logger = createLogger({ level: env.LOG_LEVEL ?? 'warn' });
  try {
    sandbox = await startSandbox({ env, plan, logger });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      error instanceof RedisMissingError
        ? `${message}\n`
        : `collab-slack sandbox could not start: ${message}\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`${sandbox.line}\n`);
  installSafetyNet(logger, () => sandbox.stop());

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => process.exit(1), 15_000);
    timer.unref();
    sandbox.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
