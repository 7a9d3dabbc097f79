/**
 * Talk to a Bolt endpoint exactly as Slack does: signed requests with Slack's body encodings.
 * Commands are form-encoded; interactivity is form-encoded `payload=<json>`; events are JSON.
 */
import { createHmac } from 'node:crypto';
import { type EventEnvelopeOptions, eventEnvelope, LOCAL_VERIFICATION_TOKEN } from './payloads.ts';

// A type alias (not an interface) so it can be passed where `Record<string, string>` headers go.
export type SlackSignatureHeaders = {
  'x-slack-signature': string;
  'x-slack-request-timestamp': string;
};

/** `v0=` + hex HMAC-SHA256(signing secret, `v0:{timestamp}:{raw body}`). */
export function signSlackRequest(
  signingSecret: string,
  rawBody: string,
  timestampSec: number = Math.floor(Date.now() / 1000),
): SlackSignatureHeaders {
  const timestamp = String(timestampSec);
  const digest = createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex');
  return { 'x-slack-signature': `v0=${digest}`, 'x-slack-request-timestamp': timestamp };
}

export interface SlashCommandFields {
  command: string;
  text: string;
  user_id: string;
  user_name?: string;
  channel_id: string;
  channel_name?: string;
  team_id: string;
  team_domain?: string;
  response_url: string;
  trigger_id: string;
  api_app_id?: string;
  enterprise_id?: string;
  enterprise_name?: string;
  /** Installed org-wide (Enterprise Grid); sent as the string `true`/`false`. Default false. */
  is_enterprise_install?: boolean;
  /** Verification token; default {@link LOCAL_VERIFICATION_TOKEN}. */
  token?: string;
}

/** A slash command body, form-encoded with the fields (and order) Slack sends. */
export function slashCommandBody(fields: SlashCommandFields): string {
  const form = new URLSearchParams();
  form.set('token', fields.token ?? LOCAL_VERIFICATION_TOKEN);
  form.set('team_id', fields.team_id);
  form.set('team_domain', fields.team_domain ?? 'local');
  if (fields.enterprise_id !== undefined) form.set('enterprise_id', fields.enterprise_id);
  if (fields.enterprise_name !== undefined) form.set('enterprise_name', fields.enterprise_name);
  form.set('channel_id', fields.channel_id);
  form.set(
    'channel_name',
    fields.channel_name ?? (fields.channel_id.startsWith('D') ? 'directmessage' : 'general'),
  );
  form.set('user_id', fields.user_id);
  form.set('user_name', fields.user_name ?? fields.user_id.replace(/^U_?/, '').toLowerCase());
  form.set('command', fields.command);
  form.set('text', fields.text);
  form.set('api_app_id', fields.api_app_id ?? 'A_LOCAL');
  form.set('is_enterprise_install', String(fields.is_enterprise_install === true));
  form.set('response_url', fields.response_url);
  form.set('trigger_id', fields.trigger_id);
  return form.toString();
}

/** An interactivity body: `payload=` + the URL-encoded JSON payload. */
export function interactionBody(payload: object): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/**
 * An Events API body: the JSON `event_callback` envelope around `event`. For the `url_verification`
 * handshake, send `JSON.stringify(urlVerification())` instead.
 */
export function eventBody(event: { type: string }, options: EventEnvelopeOptions = {}): string {
  return JSON.stringify(eventEnvelope(event, options));
}
