/**
 * Slack's error codes, decided in one place: what each code the app meets means, and where the
 * code of a Web API failure is read from (never the request, which carries the token).
 */
import { ErrorCode, WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import {
  closedChannel,
  isGone,
  isSlackBusy,
  isUnreachable,
  joinsFirst,
  slackErrorCode,
  slackErrorKind,
} from '../../src/slackapi/errors.ts';

describe("Slack's error codes", () => {
  it('reads the code of a platform error, or of the client, and nothing else', () => {
    expect(
      slackErrorCode({ code: ErrorCode.PlatformError, data: { ok: false, error: 'not_in_channel' } }),
    ).toBe('not_in_channel');
    expect(slackErrorCode({ code: ErrorCode.RateLimitedError })).toBe('slack_webapi_rate_limited_error');
    expect(slackErrorCode(new Error('xoxb-secret in a message'))).toBe('unknown_error');
    expect(slackErrorCode(undefined)).toBe('unknown_error');
  });

  it('reads the code the Web API client throws when it refuses a rate-limited call', async () => {
    const client = new WebClient('xoxb-test', {
      slackApiUrl: 'http://127.0.0.1:9/api/',
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
    });
    expect(slackErrorKind(ErrorCode.RateLimitedError)).toBe('busy');
    // Unreachable: a request error, not Slack's answer — a kind of its own, and no token in it.
    const failed = await client.chat
      .postMessage({ channel: 'C1', text: 'x' })
      .catch((error: unknown) => error);
    expect(slackErrorCode(failed)).toBe(ErrorCode.RequestError);
    expect(slackErrorCode(failed)).not.toContain('xoxb');
  });

  it('says Slack is busy only when it said "not now"', () => {
    for (const code of ['ratelimited', 'slack_webapi_rate_limited_error', 'service_unavailable'])
      expect(isSlackBusy(code)).toBe(true);
    for (const code of ['not_in_channel', 'channel_not_found', 'internal_error', 'unknown_error'])
      expect(isSlackBusy(code)).toBe(false);
  });

  it('forgets a card or an unfurl only when its message or channel is gone for good', () => {
    for (const code of [
      'message_not_found',
      'cant_update_message',
      'cannot_unfurl_message',
      'channel_not_found',
      'cannot_find_channel',
      'is_archived',
    ])
      expect(isGone(code)).toBe(true);
    for (const code of ['not_in_channel', 'ratelimited', 'restricted_action', 'unknown_error'])
      expect(isGone(code)).toBe(false);
  });

  it('mirrors to the sender when the conversation cannot take the message', () => {
    for (const code of [
      'not_in_channel',
      'channel_not_found',
      'is_archived',
      'restricted_action',
      'cannot_dm_bot',
      'thread_not_found',
    ])
      expect(isUnreachable(code)).toBe(true);
    for (const code of ['ratelimited', 'message_not_found', 'unknown_error'])
      expect(isUnreachable(code)).toBe(false);
  });

  it('pauses a channel that cannot take posts, and says why; joins only where the bot may', () => {
    expect(closedChannel('is_archived')).toBe('archived');
    expect(closedChannel('channel_not_found')).toBe('deleted');
    expect(closedChannel('not_in_channel')).toBe('removed');
    expect(closedChannel('method_not_supported_for_channel_type')).toBe('removed');
    expect(closedChannel('ratelimited')).toBeUndefined();
    expect(closedChannel('hasOwnProperty')).toBeUndefined();
    expect(joinsFirst('not_in_channel')).toBe(true);
    expect(joinsFirst('method_not_supported_for_channel_type')).toBe(false);
  });
});
