/**
 * The only reader of process.env. Every variable is defined once, in EnvSchema: how it is read,
 * its default and its description. The configuration page's table is generated from it
 * (`npm run docs:config`), and a test fails when the page and the schema disagree.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { QueryNames } from './collab/wire.ts';
import { decodeEncryptionKey } from './store/crypto.ts';
import type { RedisTarget } from './store/redis.ts';

const optionalText = z
  .string()
  .transform((v) => v.trim())
  .pipe(z.string())
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** A comma-separated list, each entry trimmed, empty ones dropped. */
const commaList = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');

const optionalInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max).optional();

const int = (fallback: number, min: number, max: number) => optionalInt(min, max).default(fallback);

/** `true` or `1` turns it on; anything else of these, or nothing, leaves it off. */
const flag = () =>
  z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((v) => v === 'true' || v === '1');

export const ROLES = ['web', 'worker', 'all'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Every variable, defined once: how it is read (its schema, default included) and what the
 * configuration page says of it (its description; the page adds "Default …" from the schema).
 * The order is the page's.
 */
const EnvSchema = z.object({
  ROLE: z
    .enum(ROLES)
    .optional()
    .default('all')
    .describe('Which part this process runs: `web` (Slack endpoint), `worker` (jobs), or `all`.'),
  SLACK_SIGNING_SECRET: optionalText.describe('HTTP mode: verifies that requests come from Slack.'),
  SLACK_BOT_TOKEN: optionalText.describe('Single-workspace mode: the bot token (`xoxb-…`).'),
  SLACK_APP_TOKEN: optionalText.describe(
    'Socket Mode: the app-level token (`xapp-…`); setting it selects Socket Mode.',
  ),
  SLACK_BOT_USER_ID: optionalText.describe('Optional: the bot user id, so start-up skips `auth.test`.'),
  SLACK_API_URL: z.url().optional().describe("Base URL of the Slack Web API. Default Slack's own."),
  SLASH_COMMAND: z
    .string()
    .regex(/^\/[a-z0-9_-]{1,31}$/, 'a slash and up to 31 lower-case letters, digits, - or _')
    .optional()
    .default('/collab')
    .describe('The slash command the app answers.'),
  COLLAB_API_URL: z
    .url()
    .optional()
    .describe("The collaboration service's base URL (the spec's `{base_url}`, without `/v2`)."),
  COLLAB_API_KEY: optionalText.describe("Single-workspace mode: the organisation's API key."),
  COLLAB_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const entries = commaList(raw);
      const bad = entries.filter((entry) => !isAllowedHostEntry(entry));
      if (bad.length > 0) {
        ctx.addIssue({ code: 'custom', message: `not a host name, address or CIDR: ${bad.join(', ')}` });
        return z.NEVER;
      }
      return entries;
    })
    .describe(
      'Optional: hosts and CIDRs (comma separated, e.g. `collab.corp.internal,10.20.0.0/16`) that a service base URL may resolve to although they are not public (on-premises services). Others: only public addresses.',
    ),
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
    })
    .describe(
      'Optional JSON overriding the query parameter names of list endpoints, e.g. `{"pageSize":"per_page"}`.',
    ),
  COLLAB_CONNECT_TIMEOUT_MS: int(5000, 100, 120_000).describe('Connect timeout of API calls.'),
  COLLAB_TIMEOUT_MS: int(10_000, 100, 300_000).describe(
    'Time to wait for the headers and body of an API answer.',
  ),
  COLLAB_OPTIONS_TIMEOUT_MS: int(1500, 100, 2500).describe(
    'Time the channel/member pickers wait for the API (Slack allows 3 s).',
  ),
  COLLAB_RATE_LIMIT: int(500, 1, 1_000_000).describe(
    'Requests per window the whole deployment sends to one service host, counted in Redis by every process (the service allows 500 per 30 s per client address).',
  ),
  COLLAB_RATE_WINDOW_MS: int(30_000, 100, 3_600_000).describe('The window of `COLLAB_RATE_LIMIT`.'),
  COLLAB_RATE_PERSON_RESERVE: int(100, 0, 1_000_000).describe(
    'Turns of each window kept for operations a person asked for; polls, digests and unfurls use the rest.',
  ),
  COLLAB_RATE_PAUSE_MS: int(5_000, 10, 600_000).describe(
    'How long every process holds back from a service host after it answered 429 (a shorter `Retry-After` shortens it; the refused operation itself waits the whole `Retry-After`).',
  ),
  COLLAB_CONNECTIONS: optionalInt(1, 4096).describe(
    "Keep-alive connections of each service host's pool in one process. Default: `WORKER_CONCURRENCY`.",
  ),
  REDIS_URL: z
    .string()
    .optional()
    .default('redis://127.0.0.1:6379')
    .describe('Redis for the queue and state.'),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9_-]+$/)
    .optional()
    .default('cs')
    .describe('Prefix of every Redis key this app writes.'),
  REDIS_CLUSTER_NODES: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const entries = commaList(raw);
      const nodes = entries.map(hostPort);
      const bad = entries.filter((_, i) => nodes[i] === undefined);
      if (bad.length > 0) {
        ctx.addIssue({ code: 'custom', message: `not host:port: ${bad.join(', ')}` });
        return z.NEVER;
      }
      return nodes.length > 0 ? (nodes as Array<{ host: string; port: number }>) : undefined;
    })
    .describe(
      'Optional: a Redis Cluster instead of one Redis — some of its nodes as `host:port` (comma separated; the rest are discovered). The user, password and TLS (`rediss://`) of `REDIS_URL` apply to every node.',
    ),
  REDIS_CLUSTER_NAT_MAP: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const map = natMap(raw);
      if (typeof map === 'string') {
        ctx.addIssue({ code: 'custom', message: `not announced=reachable (host:port each): ${map}` });
        return z.NEVER;
      }
      return map;
    })
    .describe(
      'Optional, cluster only: nodes reached at other addresses than they announce, as `announced=reachable` pairs of `host:port` (comma separated), e.g. `10.0.0.5:6379=redis-a.example.com:16379`.',
    ),
  REDIS_CLUSTER_WAIT_REPLICAS: int(1, 0, 16).describe(
    'Cluster only: replicas an enqueue and a step\'s "started" mark wait for (`WAIT`) before the bot goes on, so a failover right after cannot lose them; 0 turns it off.',
  ),
  // At most 1000: an enqueue's WAIT must end well within the web role's 1.5 s command timeout.
  REDIS_CLUSTER_WAIT_MS: int(500, 1, 1000).describe(
    'Cluster only: the longest such a wait lasts (at most 1000); after it the bot goes on, and a master with no replica connected is not waited for.',
  ),
  QUEUE_SHARDS: optionalInt(1, 256).describe(
    "Queues the operations are spread over, each workspace's operations always on the same one; on a cluster each shard is its own hash slot, placed so that shards spread evenly over the masters. Every worker process serves every shard. Default 1 on one Redis, 6 on a cluster.",
  ),
  QUEUE_FAIR_SHARE: int(20, 0, 100_000).describe(
    "Operations a workspace puts in the queue's line per minute (counted by each web process); beyond that its operations wait behind every other workspace's, in turns, so one workspace's flood holds another's operation back by at most this many of its own. `0` turns fair shares off.",
  ),
  REDIS_ALLOW_VOLATILE: flag().describe(
    'Optional: `true` lets a production start (`NODE_ENV=production`) go on with a Redis that would lose or evict queued work (`appendonly no`, `appendfsync no`, an evicting `maxmemory-policy`); it then only warns.',
  ),
  PORT: int(3000, 0, 65_535).describe('HTTP port of the web role; Slack posts to `/slack/events`.'),
  HTTP_HEADERS_TIMEOUT_MS: int(6000, 1, 600_000).describe(
    "Web role: a client must send a request's headers within this time, or its connection is closed (408).",
  ),
  HTTP_REQUEST_TIMEOUT_MS: int(10_000, 1, 3_600_000).describe(
    'Web role: a whole request (headers and body) must arrive within this time. Slack gives up after 3 s, and a body to `/slack/events` gets 3 s whatever this says.',
  ),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: int(5000, 1, 600_000).describe(
    "Web role: an idle keep-alive connection is closed after this time; behind a load balancer, set it above the balancer's idle timeout.",
  ),
  HTTP_MAX_CONNECTIONS: int(1000, 1, 1_000_000).describe(
    'Web role: open connections at most; more are closed at once.',
  ),
  WORKER_CONCURRENCY: optionalInt(1, 1024).describe(
    'Jobs one worker process runs at once. Default: enough to send the whole request budget with operations of up to 2 s each (`COLLAB_RATE_LIMIT` per second × 2), between 16 and 256: 34 with the default budget.',
  ),
  JOB_ATTEMPTS: int(6, 1, 50).describe('Attempts of an operation before it is reported failed.'),
  JOB_BACKOFF_MS: int(1000, 10, 600_000).describe('First retry delay; doubles each attempt, with jitter.'),
  JOB_LOCK_MS: int(60_000, 1000, 600_000).describe(
    'How long a job stays locked to a worker that stopped answering (crashed) before another runs it again; renewed while the job runs.',
  ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .optional()
    .default('info')
    .describe('pino level: `fatal` … `trace`.'),
  SLACK_CLIENT_ID: optionalText.describe(
    "Multi-workspace mode: the app's client id. With `SLACK_CLIENT_SECRET` and `SLACK_STATE_SECRET` it turns on OAuth install at `/slack/install`.",
  ),
  SLACK_CLIENT_SECRET: optionalText.describe("Multi-workspace mode: the app's client secret."),
  SLACK_STATE_SECRET: optionalText.describe(
    'Multi-workspace mode: any long random string; signs the OAuth `state`.',
  ),
  ENCRYPTION_KEY: optionalText.describe(
    'Multi-workspace mode: 32 bytes, base64 or hex; encrypts API keys and bot tokens at rest (AES-256-GCM).',
  ),
  ENCRYPTION_KEY_PREVIOUS: optionalText.describe(
    'Optional: the key before a rotation; values it encrypted are still read, and re-encrypted with `ENCRYPTION_KEY`.',
  ),
  ADMIN_USER_IDS: z
    .string()
    .optional()
    .transform(commaList)
    .describe(
      'Optional: Slack user ids (comma separated) who may change settings besides workspace admins and owners.',
    ),
  ALLOW_INSECURE_COLLAB_URL: flag().describe(
    'Optional: `true` lets an admin connect to an `http://` service on localhost / 127.0.0.1 outside development.',
  ),
  NODE_ENV: optionalText.describe(
    '`development` or `test` also allow an `http://` service on localhost / 127.0.0.1; anything else requires `https://`.',
  ),
  // Read by `npm start` (src/sandbox/mode.ts) only; the bot ignores it.
  SANDBOX: optionalText.describe(
    '`npm start` only, never under `NODE_ENV=production`: `collab` pairs the configured Slack with the emulated service, `slack` the local Slack stand-in with the configured service, `all` emulates both.',
  ),
  READY_MAX_WAITING: int(10_000, 1, 10_000_000).describe(
    '`/readyz` reports `backlogged: true` when more jobs than this wait in the queue (it stays ready: all instances share the queue).',
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url()
    .optional()
    .describe(
      'Optional: an OTLP/HTTP collector, e.g. `http://otel-collector:4318`; setting it turns on OpenTelemetry tracing (traces go to `…/v1/traces`). Off (and not loaded) by default.',
    ),
  OTEL_SERVICE_NAME: z
    .string()
    .trim()
    .min(1)
    .optional()
    .default('collab-slack')
    .describe('The service name traces carry.'),
  JOBS_DASHBOARD_USER: optionalText.describe(
    'Optional: with `JOBS_DASHBOARD_PASSWORD`, serves the jobs dashboard at `/jobs` on the web role, behind HTTP Basic authentication. Off by default.',
  ),
  JOBS_DASHBOARD_PASSWORD: optionalText.describe('The jobs dashboard password: at least 16 characters.'),
  JOBS_DASHBOARD_WRITE: flag().describe(
    '`true` lets the jobs dashboard retry, promote, clean and remove jobs; `false` (default) shows them read-only.',
  ),
  FEED_POLL_INTERVAL_MS: int(60_000, 1000, 24 * 3600_000).describe(
    'How often a followed Slack channel checks its collaboration channel for new posts and changes.',
  ),
  THREAD_POLL_ACTIVE_MS: int(15_000, 1000, 24 * 3600_000).describe(
    'How often a mirrored chat thread is checked for replies while its conversation was active in the last 10 minutes.',
  ),
  THREAD_POLL_IDLE_MS: int(300_000, 1000, 7 * 24 * 3600_000).describe(
    'How often a quiet mirrored chat thread is checked for replies.',
  ),
  DIGEST_QUIET_NOTE: flag().describe(
    '`true` posts a one-line "nothing changed" note when a scheduled digest has nothing to say; `false` (default) posts nothing.',
  ),
  COLLAB_POST_URL_PATTERN: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return undefined;
      const pattern = postUrlPattern(raw.trim());
      if (typeof pattern === 'string') {
        ctx.addIssue({ code: 'custom', message: pattern });
        return z.NEVER;
      }
      return pattern;
    })
    .describe(
      'Optional: a regular expression with one capture group, the post id, e.g. `^https://collab\\.example\\.com/posts/([^/?#]+)`. Links matching it are unfurled even if the bot has not seen them. Without it only urls the service handed to the bot are recognised (the API shows no url format).',
    ),
});

export type ConfigVariable = keyof typeof EnvSchema.shape;

/** The variables, in the configuration page's order. */
export const CONFIG_VARIABLES = Object.keys(EnvSchema.shape) as ConfigVariable[];

/** What the configuration page says of a variable: its description, then its default if the schema has one. */
export function describeVariable(name: ConfigVariable): string {
  const schema = EnvSchema.shape[name];
  const words = schema.description ?? '';
  if (schema.def.type !== 'default') return words;
  const fallback = (schema.def as { defaultValue: unknown }).defaultValue;
  return `${words} Default ${typeof fallback === 'number' ? fallback : `\`${String(fallback)}\``}.`;
}

/** Each variable with the words the configuration page shows. */
export const CONFIG_DOCS = Object.fromEntries(
  CONFIG_VARIABLES.map((name) => [name, describeVariable(name)]),
) as Record<ConfigVariable, string>;

/** The variables as the schema reads them, before they are put together. */
type EnvValues = z.output<typeof EnvSchema>;

/**
 * What no single variable can say: the variables a mode needs, and those that go together.
 * Each problem is a sentence naming its variables.
 */
function checkTogether(e: EnvValues, problem: (message: string) => void): void {
  const need = (name: ConfigVariable, value: string | undefined, why: string) => {
    if (value === undefined) problem(`${name} is missing (${why}). ${CONFIG_DOCS[name]}`);
  };
  if (isMulti(e)) {
    need('SLACK_CLIENT_ID', e.SLACK_CLIENT_ID, 'multi-workspace mode');
    need('SLACK_CLIENT_SECRET', e.SLACK_CLIENT_SECRET, 'multi-workspace mode');
    need('SLACK_STATE_SECRET', e.SLACK_STATE_SECRET, 'multi-workspace mode');
    need('ENCRYPTION_KEY', e.ENCRYPTION_KEY, 'API keys and tokens are encrypted at rest');
    if (e.SLACK_BOT_TOKEN !== undefined)
      problem('SLACK_BOT_TOKEN must not be set in multi-workspace mode (installations bring the tokens).');
  } else {
    need('SLACK_BOT_TOKEN', e.SLACK_BOT_TOKEN, 'the bot posts with it');
    need('COLLAB_API_URL', e.COLLAB_API_URL, 'where the collaboration service is');
    need('COLLAB_API_KEY', e.COLLAB_API_KEY, 'the organisation key for the service');
  }
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS)
    problem('HTTP_HEADERS_TIMEOUT_MS must not be greater than HTTP_REQUEST_TIMEOUT_MS.');
  if (e.SLACK_APP_TOKEN === undefined) need('SLACK_SIGNING_SECRET', e.SLACK_SIGNING_SECRET, 'HTTP mode');
  for (const name of ['ENCRYPTION_KEY', 'ENCRYPTION_KEY_PREVIOUS'] as const) {
    const value = e[name];
    if (value !== undefined && !isEncryptionKey(value))
      problem(`${name}: must be 32 bytes, written as 64 hex digits or 44 base64 characters.`);
  }
  if ((e.JOBS_DASHBOARD_USER === undefined) !== (e.JOBS_DASHBOARD_PASSWORD === undefined))
    problem('JOBS_DASHBOARD_USER and JOBS_DASHBOARD_PASSWORD go together: set both, or neither.');
  if (e.JOBS_DASHBOARD_PASSWORD !== undefined && e.JOBS_DASHBOARD_PASSWORD.length < 16)
    problem('JOBS_DASHBOARD_PASSWORD: must be at least 16 characters.');
}

/** The configuration the checked variables describe. */
function configOf(e: EnvValues) {
  const concurrency =
    e.WORKER_CONCURRENCY ?? defaultConcurrency(e.COLLAB_RATE_LIMIT, e.COLLAB_RATE_WINDOW_MS);
  return {
    role: e.ROLE,
    slack: slackOf(e),
    collab: collabOf(e, concurrency),
    ...redisOf(e),
    prefix: e.QUEUE_PREFIX,
    port: e.PORT,
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: e.HTTP_MAX_CONNECTIONS,
    },
    worker: { concurrency, attempts: e.JOB_ATTEMPTS, backoffMs: e.JOB_BACKOFF_MS, lockMs: e.JOB_LOCK_MS },
    logLevel: e.LOG_LEVEL,
    /** multi-workspace mode (OAuth install); absent in single-workspace mode */
    ...(isMulti(e)
      ? {
          install: {
            clientId: e.SLACK_CLIENT_ID!,
            clientSecret: e.SLACK_CLIENT_SECRET!,
            stateSecret: e.SLACK_STATE_SECRET!,
          },
        }
      : {}),
    /** AES-256-GCM keys of values at rest (store/crypto.ts); required in multi-workspace mode */
    ...(e.ENCRYPTION_KEY
      ? {
          encryption: {
            encryptionKey: e.ENCRYPTION_KEY,
            ...(e.ENCRYPTION_KEY_PREVIOUS ? { encryptionKeyPrevious: e.ENCRYPTION_KEY_PREVIOUS } : {}),
          },
        }
      : {}),
    ...operationsOf(e),
    ...featuresOf(e),
  };
}

const isMulti = (e: EnvValues) =>
  [e.SLACK_CLIENT_ID, e.SLACK_CLIENT_SECRET, e.SLACK_STATE_SECRET].some((v) => v !== undefined);

function slackOf(e: EnvValues) {
  return {
    // botToken: single-workspace mode only; multi-workspace bot tokens come from installations
    signingSecret: e.SLACK_SIGNING_SECRET,
    ...(e.SLACK_BOT_TOKEN ? { botToken: e.SLACK_BOT_TOKEN } : {}),
    appToken: e.SLACK_APP_TOKEN,
    botUserId: e.SLACK_BOT_USER_ID,
    apiUrl: e.SLACK_API_URL,
    slashCommand: e.SLASH_COMMAND,
  };
}

function collabOf(e: EnvValues, concurrency: number) {
  return {
    // baseUrl, apiKey: single-workspace mode only; each workspace connects its own otherwise
    ...(e.COLLAB_API_URL ? { baseUrl: e.COLLAB_API_URL } : {}),
    ...(e.COLLAB_API_KEY ? { apiKey: e.COLLAB_API_KEY } : {}),
    queryNames: e.COLLAB_QUERY_NAMES,
    connectTimeoutMs: e.COLLAB_CONNECT_TIMEOUT_MS,
    timeoutMs: e.COLLAB_TIMEOUT_MS,
    optionsTimeoutMs: e.COLLAB_OPTIONS_TIMEOUT_MS,
    /** hosts and CIDRs a service URL entered on the connect form may resolve to although not public */
    allowedHosts: e.COLLAB_ALLOWED_HOSTS,
    /** keep-alive pool size per service host (COLLAB_CONNECTIONS) */
    connections: e.COLLAB_CONNECTIONS ?? concurrency,
    /** the request budget per service host, shared through Redis (COLLAB_RATE_*) */
    rate: {
      limit: e.COLLAB_RATE_LIMIT,
      windowMs: e.COLLAB_RATE_WINDOW_MS,
      personReserve: Math.min(e.COLLAB_RATE_PERSON_RESERVE, e.COLLAB_RATE_LIMIT - 1),
      pauseMs: e.COLLAB_RATE_PAUSE_MS,
    },
  };
}

function redisOf(e: EnvValues) {
  return {
    redisUrl: e.REDIS_URL,
    /** where Redis is: REDIS_URL, or a cluster (REDIS_CLUSTER_NODES) with REDIS_URL's credentials */
    redis: redisTarget(e),
    /** cluster only: WAIT for this many replicas (at most `timeoutMs`) after writes a failover must not lose */
    redisWait: {
      replicas: e.REDIS_CLUSTER_NODES ? e.REDIS_CLUSTER_WAIT_REPLICAS : 0,
      timeoutMs: e.REDIS_CLUSTER_WAIT_MS,
    },
    /** how many queues (shards) operations are spread over, by workspace (QUEUE_SHARDS) */
    queueShards: queueShards(e),
    /** a workspace's operations in line per minute before the rest wait behind others' (QUEUE_FAIR_SHARE) */
    queueFairShare: e.QUEUE_FAIR_SHARE,
    /**
     * The Redis persistence check at start (store/durability.ts). `volatileByDesign`: the sandbox,
     * whose emulated service forgets everything at exit anyway, so a volatile Redis is no news.
     */
    redisDurability: {
      production: e.NODE_ENV === 'production',
      allowVolatile: e.REDIS_ALLOW_VOLATILE,
      volatileByDesign: false,
    },
  };
}

/** Who may change settings, and what operators watch: readiness, tracing, the jobs dashboard. */
function operationsOf(e: EnvValues) {
  return {
    /** who may change settings besides workspace admins and owners */
    adminUserIds: e.ADMIN_USER_IDS,
    /** whether an admin may connect to http:// on localhost (development, tests, or the explicit opt-in) */
    allowInsecureCollabUrl:
      e.ALLOW_INSECURE_COLLAB_URL || e.NODE_ENV === 'development' || e.NODE_ENV === 'test',
    /** /readyz fails when more jobs than this are waiting */
    readyMaxWaiting: e.READY_MAX_WAITING,
    /** OpenTelemetry tracing; undefined (off) without OTEL_EXPORTER_OTLP_ENDPOINT */
    tracing: e.OTEL_EXPORTER_OTLP_ENDPOINT
      ? { endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: e.OTEL_SERVICE_NAME }
      : undefined,
    /** the jobs dashboard on the web role; undefined (off) without its credentials */
    jobsDashboard:
      e.JOBS_DASHBOARD_USER && e.JOBS_DASHBOARD_PASSWORD
        ? { user: e.JOBS_DASHBOARD_USER, password: e.JOBS_DASHBOARD_PASSWORD, write: e.JOBS_DASHBOARD_WRITE }
        : undefined,
  };
}

/** How feeds, threads, digests and unfurls behave. */
function featuresOf(e: EnvValues) {
  return {
    /** how often feeds and mirrored threads are polled */
    polling: {
      feedIntervalMs: e.FEED_POLL_INTERVAL_MS,
      threadActiveMs: e.THREAD_POLL_ACTIVE_MS,
      threadIdleMs: e.THREAD_POLL_IDLE_MS,
    },
    /** digests: post a one-line note when nothing changed (DIGEST_QUIET_NOTE) */
    digestQuietNote: e.DIGEST_QUIET_NOTE,
    /** unfurls: url → post id for links the bot has not seen (COLLAB_POST_URL_PATTERN) */
    postUrlPattern: e.COLLAB_POST_URL_PATTERN,
  };
}

/** The environment read, checked and put together: the types below are what it yields. */
const ConfigSchema = EnvSchema.superRefine((e, ctx) =>
  checkTogether(e, (message) => ctx.addIssue({ code: 'custom', message, path: [] })),
).transform(configOf);

export type Config = z.infer<typeof ConfigSchema>;
export type SlackConfig = Config['slack'];
export type CollabConfig = Config['collab'];
/** Limits of the web role's HTTP server (node:http). */
export type HttpServerLimits = Config['http'];
/** Multi-workspace mode (OAuth install). */
export type InstallConfig = NonNullable<Config['install']>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Configuration is incomplete:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

/** A variable's problem names the variable; a problem of several is a sentence of its own. */
function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((issue) =>
    issue.path.length === 0 ? issue.message : `${String(issue.path[0])}: ${issue.message}`,
  );
}

/**
 * The variables that hold something. An empty one (`FOO=`, which Compose passes as `""` from an
 * env file) or one of blanks is unset, whatever its kind: a URL, a number, a flag or a text.
 */
function present(env: Env): Env {
  return Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
}

/** Reads and checks the environment; throws ConfigError naming every missing or invalid variable. */
export function loadConfig(env: Env = process.env): Config {
  const parsed = ConfigSchema.safeParse(present(env));
  if (!parsed.success) throw new ConfigError(problemsOf(parsed.error));
  return parsed.data;
}

/** The process's configuration, with the role given on the command line (if any) over ROLE. */
export function loadConfigFor(role: Role | undefined): Config {
  return loadConfig({ ...process.env, ...(role ? { ROLE: role } : {}) });
}

/** A COLLAB_ALLOWED_HOSTS entry: a host name, an IP address, or a CIDR (address/prefix). */
function isAllowedHostEntry(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || address === undefined) return false;
  const version = isIP(address.replace(/^\[|\]$/g, ''));
  if (prefix !== undefined) {
    const bits = Number(prefix);
    return version !== 0 && /^\d+$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
  }
  return (
    version !== 0 || /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(address)
  );
}

/**
 * Jobs are I/O-bound: a slot is held for an operation's API and Slack calls (~0.1–2 s). Enough
 * slots to send the whole request budget with operations of 2 s each; more would only wait for
 * turns of the budget (Little's law: in flight = rate × time).
 */
export function defaultConcurrency(limit: number, windowMs: number): number {
  return Math.min(256, Math.max(16, Math.ceil((limit / windowMs) * 1000 * 2)));
}

/** 32 bytes as 64 hex digits, or as base64 (padded or not). */
export function isEncryptionKey(value: string): boolean {
  return decodeEncryptionKey(value) !== undefined;
}

/** `host:port` (a bracketed IPv6 address too), or undefined. */
function hostPort(text: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:\s]+):(\d{1,5})$/.exec(text);
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) return undefined;
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

/** `announced=reachable` pairs (`host:port` each, comma separated); the first bad pair as text. */
function natMap(
  raw: string | undefined,
): Record<string, { host: string; port: number }> | undefined | string {
  const map: Record<string, { host: string; port: number }> = {};
  for (const pair of (raw ?? '').split(',').map((p) => p.trim())) {
    if (pair === '') continue;
    const [from, to, ...rest] = pair.split('=');
    const announced = from ? hostPort(from.trim()) : undefined;
    const reachable = to ? hostPort(to.trim()) : undefined;
    if (rest.length > 0 || !announced || !reachable) return pair;
    map[`${announced.host}:${announced.port}`] = reachable;
  }
  return Object.keys(map).length > 0 ? map : undefined;
}

/** A regular expression with exactly one capture group (the post id), or what is wrong with it. */
function postUrlPattern(text: string): RegExp | string {
  let pattern: RegExp;
  try {
    pattern = new RegExp(text);
  } catch {
    return 'must be a valid regular expression';
  }
  // One capture group: the post id. Counted on an empty match's shape.
  const groups = new RegExp(`${pattern.source}|`).exec('')?.length ?? 1;
  return groups - 1 === 1 ? pattern : 'must have exactly one capture group (the post id)';
}

type RedisEnv = {
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: Array<{ host: string; port: number }> | undefined;
  REDIS_CLUSTER_NAT_MAP?: Record<string, { host: string; port: number }> | undefined;
  QUEUE_SHARDS?: number | undefined;
};

function redisTarget(e: RedisEnv): RedisTarget {
  if (!e.REDIS_CLUSTER_NODES) return { url: e.REDIS_URL };
  return { url: e.REDIS_URL, cluster: { nodes: e.REDIS_CLUSTER_NODES, natMap: e.REDIS_CLUSTER_NAT_MAP } };
}

/** One queue on one Redis (as before shards existed); on a cluster, enough to spread over its masters. */
export const DEFAULT_CLUSTER_SHARDS = 6;

function queueShards(e: RedisEnv): number {
  return e.QUEUE_SHARDS ?? (e.REDIS_CLUSTER_NODES ? DEFAULT_CLUSTER_SHARDS : 1);
}

/** The queue's Redis, prefix and shards alone, for tools (the jobs CLI) that need nothing else. */
export function loadQueueConfig(env: Env = process.env): {
  redisUrl: string;
  redis: RedisTarget;
  prefix: string;
  queueShards: number;
} {
  const parsed = EnvSchema.pick({
    REDIS_URL: true,
    REDIS_CLUSTER_NODES: true,
    REDIS_CLUSTER_NAT_MAP: true,
    QUEUE_PREFIX: true,
    QUEUE_SHARDS: true,
  }).safeParse(present(env));
  if (!parsed.success) throw new ConfigError(problemsOf(parsed.error));
  const e = parsed.data;
  return {
    redisUrl: e.REDIS_URL,
    redis: redisTarget(e),
    prefix: e.QUEUE_PREFIX,
    queueShards: queueShards(e),
  };
}
