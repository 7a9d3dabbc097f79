/**
 * The Slack Web API client the app talks to Slack with, for every workspace: it fails fast and
 * lets the queue decide retries. What its failures mean is decided in errors.ts beside it.
 */
import { WebClient } from '@slack/web-api';

/** A Web API client that fails fast and lets the queue decide retries. */
export function slackWebClient(token: string, apiUrl: string | undefined): WebClient {
  return new WebClient(token, {
    ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
    timeout: 10_000,
    retryConfig: { retries: 1, factor: 1, minTimeout: 200, maxTimeout: 1000 },
    rejectRateLimitedCalls: true,
  });
}
