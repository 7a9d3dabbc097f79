/**
 * Slack channels that come and go: `channel_archive` / `group_archive`, `channel_deleted` /
 * `group_deleted`, `channel_unarchive` / `group_unarchive`, and `member_left_channel` /
 * `member_joined_channel` when the member is the bot itself. Bolt has acked already; the change
 * goes to the queue (keyed by the event's id, so a redelivered event is the same job), where the
 * channel's feed and digests are paused or resumed.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { JobInput } from '../../../operations/schemas.ts';
import { authorisedTeam } from '../authorised.ts';
import type { ListenerDeps } from '../deps.ts';
import { enqueue } from '../shared.ts';

type Change = JobInput<'slackChannelChanged'>['change'];

type ChannelEvent =
  | 'channel_archive'
  | 'group_archive'
  | 'channel_deleted'
  | 'group_deleted'
  | 'channel_unarchive'
  | 'group_unarchive';

/** What each channel event means for the channel's feed and digests. */
export const CHANNEL_CHANGES: Record<ChannelEvent, Change> = {
  channel_archive: 'archived',
  group_archive: 'archived',
  channel_deleted: 'deleted',
  group_deleted: 'deleted',
  channel_unarchive: 'unarchived',
  group_unarchive: 'unarchived',
};

interface Envelope {
  event_id?: string;
  event_time?: number;
}

async function changed(
  deps: ListenerDeps,
  envelope: Envelope,
  teamId: string | undefined,
  slackChannel: unknown,
  change: Change,
): Promise<void> {
  if (!teamId || typeof slackChannel !== 'string' || slackChannel === '') return;
  const at = typeof envelope.event_time === 'number' ? envelope.event_time * 1000 : Date.now();
  const key = envelope.event_id ?? `${slackChannel}:${change}:${at}`;
  await enqueue(deps, 'slackChannelChanged', { teamId, slackChannel, change, at }, `channel:${key}`);
}

export function slackChannelListener(deps: ListenerDeps, type: ChannelEvent) {
  const change = CHANNEL_CHANGES[type];
  return async ({ event, body, context }: SlackEventMiddlewareArgs<ChannelEvent> & AllMiddlewareArgs) => {
    await changed(deps, body as Envelope, authorisedTeam(context), event.channel, change);
  };
}

/** `member_left_channel` / `member_joined_channel`: only the bot's own comings and goings count. */
export function botMembershipListener(
  deps: ListenerDeps,
  type: 'member_left_channel' | 'member_joined_channel',
) {
  const change: Change = type === 'member_left_channel' ? 'removed' : 'joined';
  return async ({
    event,
    body,
    context,
  }: SlackEventMiddlewareArgs<'member_left_channel' | 'member_joined_channel'> & AllMiddlewareArgs) => {
    if (!context.botUserId || event.user !== context.botUserId) return;
    await changed(deps, body as Envelope, authorisedTeam(context), event.channel, change);
  };
}
