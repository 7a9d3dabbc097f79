/**
 * What App Home is built from: plain data handed in by the listener or the publishHome job,
 * and the type of a section (a pure function of it). Shared by home.ts and homeSections.ts.
 */
import type { KnownBlock } from '@slack/types';
import type { NotifyShown } from './homeNotify.ts';
import type { PausedSlackChannel } from './homePaused.ts';

/** A recorded settings change as Home shows it (the store's audit entries have this shape). */
export interface HomeAuditEntry {
  at: string;
  userId: string;
  /** e.g. `connect`, `disconnect`, `link`, `unlink` */
  action: string;
  /** words for people; never a secret */
  detail?: string | undefined;
  /** the Slack channel the change concerns */
  slackChannel?: string | undefined;
}

export interface HomeConnection {
  baseUrl: string;
  connectedBy: string;
  connectedAt: string;
}

export interface HomeState {
  teamId: string;
  userId: string;
  /** single: the connection comes from the environment; multi: admins connect from here */
  mode: 'single' | 'multi';
  connection?: HomeConnection | undefined;
  /** may this person change settings (connect, disconnect, link) */
  canManage: boolean;
  /** recent settings changes, newest first */
  audit: HomeAuditEntry[];
  /** the slash command, e.g. `/collab` */
  command: string;
  /** what the service sends back to Slack (homeSections.ts): service check, channels, digests, recent operations; built by the publishHome job */
  activity?: HomeActivity | undefined;
}

export type HomeSection = (state: HomeState) => KnownBlock[];

export type ServiceState = 'ok' | 'rejected' | 'unreachable' | 'error';

export interface ServiceStatus {
  state: ServiceState;
  /** epoch ms of the check */
  checkedAt: number;
  /** words about a failure (status, reason) */
  detail?: string | undefined;
}

export interface HomeActivity {
  service?: ServiceStatus | undefined;
  /** how often feeds are checked now: the configured interval times the request budget's stretch */
  polling?: { feedEveryMs: number; stretch: number } | undefined;
  links: Array<{
    slackChannel: string;
    channelName: string;
    followed: boolean;
    bridgeReplies: boolean;
    /** the feed's filters in words (filters.ts), when it has any */
    filters?: string | undefined;
  }>;
  /** Slack channels with a feed but no link any more */
  followedOnly: string[];
  /** Slack channels archived, deleted or left by the bot: their feed and digests paused */
  paused?: PausedSlackChannel[] | undefined;
  /** the person's own notifications */
  notify?: NotifyShown | undefined;
  digests: Array<{
    id: string;
    slackChannel: string;
    label: string;
    tz: string;
    next?: number | undefined;
    filters?: string | undefined;
  }>;
  recent: Array<{
    operation: string;
    /** what it acted on: a post's title and url, or a message's people */
    subject?: { title: string; url?: string | undefined } | undefined;
    outcome: 'completed' | 'failed';
    reason?: string | undefined;
    at: string;
  }>;
}
