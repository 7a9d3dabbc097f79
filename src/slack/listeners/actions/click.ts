/**
 * What a click in a message tells us, validated: who, where (the message and its channel),
 * how to answer (the response url), and which action with which value. The workspace is the one
 * Bolt authorised (authorised.ts), never the payload's.
 */
import type { Origin } from '../../../operations/schemas.ts';
import { ButtonAction, MessageActionBody } from '../payloads.ts';

export interface MessageClick {
  teamId: string;
  userId: string;
  slackChannel: string;
  /** the message the button is on */
  ts: string;
  /** the thread the message is in, if any */
  threadTs?: string;
  responseUrl?: string;
  triggerId: string;
  actionId: string;
  value: string;
}

export function readMessageClick(
  body: unknown,
  action: unknown,
  teamId: string | undefined,
): MessageClick | undefined {
  const b = MessageActionBody.safeParse(body);
  const a = ButtonAction.safeParse(action);
  if (!b.success || !a.success) return undefined;
  const slackChannel = b.data.channel?.id ?? b.data.container?.channel_id;
  const ts = b.data.message?.ts ?? b.data.container?.message_ts;
  const threadTs = b.data.message?.thread_ts;
  if (!teamId || !slackChannel || !ts || a.data.value === undefined) return undefined;
  return {
    teamId,
    userId: b.data.user.id,
    slackChannel,
    ts,
    ...(threadTs && threadTs !== ts ? { threadTs } : {}),
    ...(b.data.response_url ? { responseUrl: b.data.response_url } : {}),
    triggerId: b.data.trigger_id,
    actionId: a.data.action_id,
    value: a.data.value,
  };
}

/** The origin of an operation started by a button. */
export function buttonOrigin(click: MessageClick, receivedAt: number): Origin {
  return {
    teamId: click.teamId,
    userId: click.userId,
    slackChannel: click.slackChannel,
    ...(click.threadTs ? { threadTs: click.threadTs } : {}),
    ...(click.responseUrl ? { responseUrl: click.responseUrl } : {}),
    receivedAt,
    source: 'button',
  };
}

/** A double click on the same card state runs once; once the card changes, its version does. */
export function buttonKey(click: MessageClick, version: string): string {
  return `btn:${click.slackChannel}:${click.ts}:${click.actionId}:${version}`;
}
