/**
 * Per-workspace credentials: the collaboration client and the Slack Web API client of a
 * Slack team. Single-workspace mode answers every team with the credentials from the
 * environment; multi-workspace installs plug in behind the same interface.
 */
import type { WebClient } from '@slack/web-api';
import { type CollabClient, type CollabClientOptions, createCollabClient } from '../collab/client.ts';
import { slackWebClient } from '../slackapi/client.ts';

export interface Workspace {
  teamId: string;
  collab: CollabClient;
  slack: WebClient;
  /** the service host the collab client sends to (its request budget's name) */
  collabHost?: string;
}

export interface Workspaces {
  get(teamId: string): Promise<Workspace | undefined>;
  /**
   * The Slack client of an installed workspace that is not connected to the service yet (so the
   * person can be told); undefined when it is connected or not installed.
   */
  unconnectedSlack?(teamId: string): Promise<WebClient | undefined>;
  /** Drops what is cached for a team (after a reconnect, a disconnect, an uninstall). */
  invalidate?(teamId: string): Promise<void>;
  close(): Promise<void>;
}

/** What the person hears when their workspace has no connection to the service. */
export const NOT_CONNECTED =
  "This workspace is not connected to the collaboration service yet — an admin can connect it from the app's Home tab.";

/** Settings every collab client gets, whatever workspace it serves. */
export interface CollabClientSettings {
  queryNames?: CollabClientOptions['queryNames'];
  connectTimeoutMs: number;
  timeoutMs: number;
  onResponse?: CollabClientOptions['onResponse'];
  /** multi-workspace mode: service URLs come from workspace admins, so every connection is checked */
  guard?: CollabClientOptions['guard'];
  /** keep-alive pool size per client (COLLAB_CONNECTIONS) */
  connections?: number;
  /** the request budget shared by every process (store/budget.ts) */
  budget?: CollabClientOptions['budget'];
}

/** The host a base url sends to: the name of its request budget. */
export function collabHostOf(baseUrl: string): string | undefined {
  try {
    return new URL(baseUrl).host;
  } catch {
    return undefined;
  }
}

export function collabClientFor(
  baseUrl: string,
  apiKey: string,
  settings: CollabClientSettings,
): CollabClient {
  return createCollabClient({
    baseUrl,
    apiKey,
    ...(settings.queryNames ? { queryNames: settings.queryNames } : {}),
    timeouts: {
      connectMs: settings.connectTimeoutMs,
      headersMs: settings.timeoutMs,
      bodyMs: settings.timeoutMs,
    },
    ...(settings.onResponse ? { onResponse: settings.onResponse } : {}),
    ...(settings.guard ? { guard: settings.guard } : {}),
    ...(settings.connections ? { connections: settings.connections } : {}),
    ...(settings.budget ? { budget: settings.budget } : {}),
  });
}

/** The one workspace's credentials, from the environment (config.ts hands them in). */
export interface SingleWorkspaceSettings {
  slack: { botToken?: string | undefined; apiUrl?: string | undefined };
  collab: CollabClientSettings & { baseUrl?: string | undefined; apiKey?: string | undefined };
}

export function singleWorkspace(
  config: SingleWorkspaceSettings,
  options: Pick<CollabClientSettings, 'onResponse' | 'budget'> = {},
): Workspaces {
  const { baseUrl, apiKey } = config.collab;
  const botToken = config.slack.botToken;
  if (!baseUrl || !apiKey || !botToken) {
    throw new TypeError('single-workspace mode needs SLACK_BOT_TOKEN, COLLAB_API_URL and COLLAB_API_KEY');
  }
  const collab = collabClientFor(baseUrl, apiKey, { ...config.collab, ...options });
  const slack = slackWebClient(botToken, config.slack.apiUrl);
  const collabHost = collabHostOf(baseUrl);
  return {
    async get(teamId) {
      return { teamId, collab, slack, ...(collabHost ? { collabHost } : {}) };
    },
    async close() {
      await collab.close();
    },
  };
}
