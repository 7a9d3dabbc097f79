/**
 * Multi-workspace mode: each Slack team brings its own bot token (its installation, from OAuth)
 * and its own connection to the service (base url + sealed API key, set by an admin on App Home).
 *
 * Clients are cached per team and keyed by the connection's `version` and the bot token: every
 * lookup reads the (small) records from Redis, so a reconnect or disconnect made in another process
 * is seen by the next job here, and the stale client is closed.
 */
import type { WebClient } from '@slack/web-api';
import type { CollabClient } from '../collab/client.ts';
import { slackWebClient } from '../slackapi/client.ts';
import type { ConnectionStore } from '../store/connections.ts';
import type { RedisInstallationStore } from '../store/installations.ts';
import {
  type CollabClientSettings,
  collabClientFor,
  collabHostOf,
  type Workspace,
  type Workspaces,
} from './workspaces.ts';

export interface MultiWorkspaceDeps {
  installations: RedisInstallationStore;
  connections: ConnectionStore;
  slackApiUrl?: string | undefined;
  collab: CollabClientSettings;
}

interface Cached {
  version: string;
  botToken: string;
  collab: CollabClient;
  slack: WebClient;
  collabHost: string | undefined;
}

export function multiWorkspace(deps: MultiWorkspaceDeps): Workspaces {
  const cache = new Map<string, Cached>();
  const slackClients = new Map<string, WebClient>();

  const botTokenOf = async (teamId: string): Promise<string | undefined> => {
    const installation = await deps.installations.forTeam(teamId);
    const token = installation?.bot?.token;
    return typeof token === 'string' && token !== '' ? token : undefined;
  };
  const slackFor = (botToken: string): WebClient => {
    let client = slackClients.get(botToken);
    if (!client) {
      client = slackWebClient(botToken, deps.slackApiUrl);
      slackClients.set(botToken, client);
    }
    return client;
  };
  const drop = async (teamId: string) => {
    const cached = cache.get(teamId);
    cache.delete(teamId);
    if (cached) {
      slackClients.delete(cached.botToken);
      await cached.collab.close().catch(() => {});
    }
  };

  return {
    async get(teamId): Promise<Workspace | undefined> {
      const botToken = await botTokenOf(teamId);
      const status = botToken ? await deps.connections.status(teamId) : undefined;
      if (!botToken || !status) {
        await drop(teamId);
        return undefined;
      }
      const cached = cache.get(teamId);
      if (cached && cached.version === status.version && cached.botToken === botToken) {
        return withHost({ teamId, collab: cached.collab, slack: cached.slack }, cached.collabHost);
      }
      // A rotated token: the client of the old one is not needed any more.
      if (cached && cached.botToken !== botToken) slackClients.delete(cached.botToken);
      const connection = await deps.connections.get(teamId);
      if (!connection) return undefined;
      const fresh: Cached = {
        version: connection.version,
        botToken,
        collab: collabClientFor(connection.baseUrl, connection.apiKey, deps.collab),
        slack: slackFor(botToken),
        collabHost: collabHostOf(connection.baseUrl),
      };
      const raced = cache.get(teamId);
      if (raced && raced.version === fresh.version && raced.botToken === botToken) {
        await fresh.collab.close().catch(() => {});
        return withHost({ teamId, collab: raced.collab, slack: raced.slack }, raced.collabHost);
      }
      if (raced) await raced.collab.close().catch(() => {});
      cache.set(teamId, fresh);
      return withHost({ teamId, collab: fresh.collab, slack: fresh.slack }, fresh.collabHost);
    },
    async unconnectedSlack(teamId) {
      const botToken = await botTokenOf(teamId);
      if (!botToken) return undefined;
      if (await deps.connections.status(teamId)) return undefined;
      return slackFor(botToken);
    },
    async invalidate(teamId) {
      await drop(teamId);
    },
    async close() {
      const all = [...cache.keys()];
      await Promise.all(all.map(drop));
      slackClients.clear();
    },
  };
}

function withHost(workspace: Workspace, collabHost: string | undefined): Workspace {
  return collabHost ? { ...workspace, collabHost } : workspace;
}
