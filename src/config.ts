/**
 * The only reader of process.env. Every variable is documented here, in one place;
 * the README's configuration table is checked against CONFIG_DOCS by a test.
 */
import { z } from 'zod';
import { QueryNames } from './collab/wire.ts';

const optionalText = z
  .string()
  .transform((v) => v.trim())
  .pipe(z.string())
  .optional()
  .transform((v) => (v === '' ? undefined : v));

const int = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).optional().default(fallback);

export const ROLES = ['web', 'worker', 'all'] as const;
export type Role = (typeof ROLES)[number];

/** Each variable, with the words the README shows. */
export const CONFIG_DOCS = {
  ROLE: 'Which part this process runs: `web` (Slack endpoint), `worker` (jobs), or `all`. Default `all`.',
  SLACK_SIGNING_SECRET: 'HTTP mode: verifies that requests come from Slack.',
  SLACK_BOT_TOKEN: 'Single-workspace mode: the bot token (`xoxb-…`).',
  SLACK_APP_TOKEN: 'Socket Mode: the app-level token (`xapp-…`); setting it selects Socket Mode.',
  SLACK_BOT_USER_ID: 'Optional: the bot user id, so start-up skips `auth.test`.',
  SLACK_API_URL: "Base URL of the Slack Web API. Default Slack's own.",
  SLASH_COMMAND: 'The slash command the app answers. Default `/collab`.',
  COLLAB_API_URL: "The collaboration service's base URL (the spec's `{base_url}`, without `/v2`).",
  COLLAB_API_KEY: "Single-workspace mode: the organisation's API key.",
  COLLAB_QUERY_NAMES:
    'Optional JSON overriding the query parameter names of list endpoints, e.g. `{"pageSize":"per_page"}`.',
  COLLAB_CONNECT_TIMEOUT_MS: 'Connect timeout of API calls. Default 5000.',
  COLLAB_TIMEOUT_MS: 'Time to wait for the headers and body of an API answer. Default 10000.',
  COLLAB_OPTIONS_TIMEOUT_MS:
    'Time the channel/member pickers wait for the API (Slack allows 3 s). Default 1500.',
  REDIS_URL: 'Redis for the queue and state. Default `redis://127.0.0.1:6379`.',
  QUEUE_PREFIX: 'Prefix of every Redis key this app writes. Default `cs`.',
  PORT: 'HTTP port of the web role; Slack posts to `/slack/events`. Default 3000.',
  WORKER_CONCURRENCY: 'Jobs one worker process runs at once. Default 16.',
  JOB_ATTEMPTS: 'Attempts of an operation before it is reported failed. Default 6.',
  JOB_BACKOFF_MS: 'First retry delay; doubles each attempt, with jitter. Default 1000.',
  LOG_LEVEL: 'pino level: `fatal` … `trace`. Default `info`.',
} as const satisfies Record<string, string>;

export type ConfigVariable = keyof typeof CONFIG_DOCS;

const EnvSchema = z.object({
  ROLE: z.enum(ROLES).optional().default('all'),
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_BOT_TOKEN: optionalText,
  SLACK_APP_TOKEN: optionalText,
  SLACK_BOT_USER_ID: optionalText,
  SLACK_API_URL: z.url().optional(),
  SLASH_COMMAND: z
    .string()
    .regex(/^\/[a-z0-9_-]{1,31}$/, 'a slash and up to 31 lower-case letters, digits, - or _')
    .optional()
    .default('/collab'),
  COLLAB_API_URL: z.url().optional(),
  COLLAB_API_KEY: optionalText,
  COLLAB_QUERY_NAMES: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return undefined;
      try {
        return QueryNames.partial().parse(JSON.parse(raw));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object of query parameter names' });
        return z.NEVER;
      }
    }),
  COLLAB_CONNECT_TIMEOUT_MS: int(5000, 100, 120_000),
  COLLAB_TIMEOUT_MS: int(10_000, 100, 300_000),
  COLLAB_OPTIONS_TIMEOUT_MS: int(1500, 100, 2500),
  REDIS_URL: z.string().optional().default('redis://127.0.0.1:6379'),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9_-]+$/)
    .optional()
    .default('cs'),
  PORT: int(3000, 0, 65_535),
  WORKER_CONCURRENCY: int(16, 1, 1024),
  JOB_ATTEMPTS: int(6, 1, 50),
  JOB_BACKOFF_MS: int(1000, 10, 600_000),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .optional()
    .default('info'),
});

export interface SlackConfig {
  signingSecret?: string;
  botToken: string;
  appToken?: string;
  botUserId?: string;
  apiUrl?: string;
  slashCommand: string;
}

export interface CollabConfig {
  baseUrl: string;
  apiKey: string;
  queryNames?: Partial<QueryNames>;
  connectTimeoutMs: number;
  timeoutMs: number;
  optionsTimeoutMs: number;
}

export interface Config {
  role: Role;
  slack: SlackConfig;
  collab: CollabConfig;
  redisUrl: string;
  prefix: string;
  port: number;
  worker: { concurrency: number; attempts: number; backoffMs: number };
  logLevel: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Configuration is incomplete:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

/** Reads and checks the environment; throws ConfigError naming every missing or invalid variable. */
export function loadConfig(env: Env = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${String(issue.path[0] ?? '?')}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  const problems: string[] = [];
  const need = (name: ConfigVariable, value: string | undefined, why: string) => {
    if (value === undefined) problems.push(`${name} is missing (${why}). ${CONFIG_DOCS[name]}`);
  };
  need('SLACK_BOT_TOKEN', e.SLACK_BOT_TOKEN, 'the bot posts with it');
  if (e.SLACK_APP_TOKEN === undefined) need('SLACK_SIGNING_SECRET', e.SLACK_SIGNING_SECRET, 'HTTP mode');
  need('COLLAB_API_URL', e.COLLAB_API_URL, 'where the collaboration service is');
  need('COLLAB_API_KEY', e.COLLAB_API_KEY, 'the organisation key for the service');
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    role: e.ROLE,
    slack: {
      signingSecret: e.SLACK_SIGNING_SECRET,
      botToken: e.SLACK_BOT_TOKEN!,
      appToken: e.SLACK_APP_TOKEN,
      botUserId: e.SLACK_BOT_USER_ID,
      apiUrl: e.SLACK_API_URL,
      slashCommand: e.SLASH_COMMAND,
    },
    collab: {
      baseUrl: e.COLLAB_API_URL!,
      apiKey: e.COLLAB_API_KEY!,
      queryNames: e.COLLAB_QUERY_NAMES,
      connectTimeoutMs: e.COLLAB_CONNECT_TIMEOUT_MS,
      timeoutMs: e.COLLAB_TIMEOUT_MS,
      optionsTimeoutMs: e.COLLAB_OPTIONS_TIMEOUT_MS,
    },
    redisUrl: e.REDIS_URL,
    prefix: e.QUEUE_PREFIX,
    port: e.PORT,
    worker: { concurrency: e.WORKER_CONCURRENCY, attempts: e.JOB_ATTEMPTS, backoffMs: e.JOB_BACKOFF_MS },
    logLevel: e.LOG_LEVEL,
  };
}
