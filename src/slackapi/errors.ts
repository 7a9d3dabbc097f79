/**
 * The one place where a failed call to Slack's Web API gets its kind, as collab/errors.ts does
 * for the service: decided by Slack's error code (`not_in_channel`, `ratelimited`…), read from
 * the error without its request, so never with the token.
 */

/** What a Slack error code says. */
export type SlackErrorKind =
  /** Slack said "not now": nothing was done, a later attempt may do it */
  | 'busy'
  /** the message (or the link on it) is gone for good */
  | 'messageGone'
  /** the channel is deleted, or was never there */
  | 'channelGone'
  /** the channel is archived */
  | 'archived'
  /** the bot is not in the channel (and may not be able to join it) */
  | 'notInChannel'
  /** the conversation does not take this message from the bot */
  | 'refused'
  | 'other';

const KINDS: Record<string, SlackErrorKind> = {
  ratelimited: 'busy',
  // the Web API client refusing a rate-limited call (slackapi/client.ts: rejectRateLimitedCalls)
  slack_webapi_rate_limited_error: 'busy',
  service_unavailable: 'busy',
  message_not_found: 'messageGone',
  cant_update_message: 'messageGone',
  cannot_unfurl_message: 'messageGone',
  channel_not_found: 'channelGone',
  cannot_find_channel: 'channelGone',
  is_archived: 'archived',
  not_in_channel: 'notInChannel',
  // the bot tried to join a private channel it was removed from
  method_not_supported_for_channel_type: 'notInChannel',
  restricted_action: 'refused',
  cannot_dm_bot: 'refused',
  thread_not_found: 'refused',
};

/** The Slack error code of a Web API failure (e.g. `not_in_channel`), never the request with its token. */
export function slackErrorCode(error: unknown): string {
  if (error && typeof error === 'object') {
    const e = error as { data?: { error?: unknown }; code?: unknown };
    if (typeof e.data?.error === 'string') return e.data.error;
    if (typeof e.code === 'string') return e.code;
  }
  return 'unknown_error';
}

export function slackErrorKind(code: string): SlackErrorKind {
  return Object.hasOwn(KINDS, code) ? KINDS[code]! : 'other';
}

/** Slack said "not now": nothing was posted, another attempt may post it. */
export function isSlackBusy(code: string): boolean {
  return slackErrorKind(code) === 'busy';
}

/** The bot is not in a channel it may join: join it, and try once more. */
export function joinsFirst(code: string): boolean {
  return code === 'not_in_channel';
}

/** The message, or its channel, is gone for good: what remembers it can forget it. */
export function isGone(code: string): boolean {
  const kind = slackErrorKind(code);
  return kind === 'messageGone' || kind === 'channelGone' || kind === 'archived';
}

/** The conversation cannot take the bot's message (gone, archived, the bot out of it, refused). */
export function isUnreachable(code: string): boolean {
  const kind = slackErrorKind(code);
  return kind === 'channelGone' || kind === 'archived' || kind === 'notInChannel' || kind === 'refused';
}

/** Why a channel cannot take posts now, when the code says it cannot. */
export type ClosedChannel = 'archived' | 'deleted' | 'removed';

export function closedChannel(code: string): ClosedChannel | undefined {
  switch (slackErrorKind(code)) {
    case 'archived':
      return 'archived';
    case 'channelGone':
      return 'deleted';
    case 'notInChannel':
      return 'removed';
    default:
      return undefined;
  }
}

/** Slack said "not now" (isSlackBusy): the job is retried, as a busy service is. */
export class SlackBusyError extends Error {
  override readonly name = 'SlackBusyError';
}

/** A post found the Slack channel unable to take it (closedChannel): a feed's poll stops there. */
export class SlackChannelPausedError extends Error {
  override readonly name = 'SlackChannelPausedError';
  constructor(
    readonly slackChannel: string,
    readonly reason: ClosedChannel,
  ) {
    super(`Slack channel ${slackChannel} paused: ${reason}`);
  }
}
