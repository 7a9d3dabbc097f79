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
];

/** Paths pino censors: the field itself and the same field one and two levels down. */
export const REDACT_PATHS = SECRET_FIELDS.flatMap((f) => [
  f,
  `*.${f}`,
  `*.*.${f}`,
  `headers.${f.toLowerCase()}`,
]);

export type { Logger };

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
