/**
 * Per-workspace credentials: the collaboration client and the Slack Web API client of a
 * Slack team. Single-workspace mode answers every team with the credentials from the
 * environment; multi-workspace installs plug in behind the same interface.
 */
import { WebClient } from '@slack/web-api';
import { type CollabClient, createCollabClient } from '../collab/client.ts';
import type { Config } from '../config.ts';

export interface Workspace {
  teamId: string;
  collab: CollabClient;
  slack: WebClient;
}

export interface Workspaces {
  get(teamId: string): Promise<Workspace | undefined>;
  close(): Promise<void>;
}

/** A Web API client that fails fast and lets the queue decide retries. */
export function slackWebClient(token: string, apiUrl: string | undefined): WebClient {
  return new WebClient(token, {
    ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
    timeout: 10_000,
    retryConfig: { retries: 1, factor: 1, minTimeout: 200, maxTimeout: 1000 },
    rejectRateLimitedCalls: true,
  });
}

export function singleWorkspace(config: Pick<Config, 'slack' | 'collab'>): Workspaces {
  const collab = createCollabClient({
    baseUrl: config.collab.baseUrl,
    apiKey: config.collab.apiKey,
    ...(config.collab.queryNames ? { queryNames: config.collab.queryNames } : {}),
    timeouts: {
      connectMs: config.collab.connectTimeoutMs,
      headersMs: config.collab.timeoutMs,
      bodyMs: config.collab.timeoutMs,
    },
  });
  const slack = slackWebClient(config.slack.botToken, config.slack.apiUrl);
  return {
    async get(teamId) {
      return { teamId, collab, slack };
    },
    async close() {
      await collab.close();
    },
  };
}
