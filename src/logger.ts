/**
 * pino JSON logs. Secrets are removed by the logger's configuration, never by call sites:
 * any field named like a credential, at any of the depths we log, is censored.
 */
import { type DestinationStream, type Logger, pino } from 'pino';

const SECRET_FIELDS = [
  'apiKey',
  'api_key',
  'token',
  'botToken',
  'appToken',
  'signingSecret',
  'clientSecret',
  'authorization',
  'Authorization',
  'password',
  'secret',
  'stateSecret',
  'client_secret',
  'encryptionKey',
  'encryptionKeyPrevious',
  'access_token',
  'refreshToken',
  'refresh_token',
  'cookie',
];

/** Paths pino censors: the field itself and the same field one and two levels down. */
export const REDACT_PATHS = SECRET_FIELDS.flatMap((f) => [
  f,
  `*.${f}`,
  `*.*.${f}`,
  `headers.${f.toLowerCase()}`,
]);

export type { Logger };

const SECRET_KEY = '(?:client_secret|[a-z_]*token|[a-z_]*secret|password|api_?key|authorization)';
const JSON_SECRET = new RegExp(`("${SECRET_KEY}"\\s*:\\s*)"[^"]*"`, 'gi');
const FORM_SECRET = new RegExp(`\\b(${SECRET_KEY}=)[^&\\s"]+`, 'gi');

/**
 * For messages that arrive as text (Bolt's and the Slack Web API client's logs, which print request
 * bodies at debug level): censors Slack tokens and the values of credential-named fields, in JSON
 * and in form encoding. Structured fields are censored by {@link REDACT_PATHS}.
 */
export function scrubText(text: string): string {
  return text
    .replace(/\bxox[a-z]-[A-Za-z0-9-]+/g, '[redacted]')
    .replace(/\bxapp-[A-Za-z0-9-]+/g, '[redacted]')
    .replace(/\bxwfp-[A-Za-z0-9-]+/g, '[redacted]')
    .replace(JSON_SECRET, '$1"[redacted]"')
    .replace(FORM_SECRET, '$1[redacted]');
}

export function createLogger(
  options: { level?: string; name?: string } = {},
  destination?: DestinationStream,
) {
  return pino(
    {
      level: options.level ?? 'info',
      name: options.name ?? 'collab-slack',
      redact: { paths: [...new Set(REDACT_PATHS)], censor: '[redacted]' },
      serializers: { err: pino.stdSerializers.err },
    },
    destination,
  );
}

/**
 * `logger.child(bindings)`, made on first use. A job makes one for every run and most runs log
 * nothing; pino redacts a child's bindings when it is made (a few percent of a busy worker).
 */
export function lazyChild(logger: Logger, bindings: Record<string, unknown>): Logger {
  let child: Logger | undefined;
  const made = () => (child ??= logger.child(bindings));
  return new Proxy(logger, {
    get(_target, property) {
      const target = made();
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(_target, property, value) {
      return Reflect.set(made(), property, value);
    },
  });
}
