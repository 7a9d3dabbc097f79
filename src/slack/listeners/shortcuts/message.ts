/** What a message shortcut tells us, validated, and how to answer the person who used it. */
import type { AllMiddlewareArgs, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import type { Outcome } from '../../render/messages.ts';
import type { ListenerDeps } from '../deps.ts';
import { MessageShortcutBody, teamOf } from '../payloads.ts';
import { tell } from '../shared.ts';

export type ShortcutArgs = SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs;

export interface UsedShortcut {
  teamId: string;
  userId: string;
  slackChannel: string;
  triggerId: string;
  responseUrl?: string;
  message: { ts: string; text: string; threadTs?: string };
}

export function readShortcut(body: unknown): UsedShortcut | undefined {
  const read = MessageShortcutBody.safeParse(body);
  if (!read.success) return undefined;
  const teamId = teamOf(read.data);
  if (!teamId) return undefined;
  const { message } = read.data;
  return {
    teamId,
    userId: read.data.user.id,
    slackChannel: read.data.channel.id,
    triggerId: read.data.trigger_id,
    ...(read.data.response_url ? { responseUrl: read.data.response_url } : {}),
    message: {
      ts: read.data.message_ts,
      text: message.text,
      ...(message.thread_ts && message.thread_ts !== read.data.message_ts
        ? { threadTs: message.thread_ts }
        : {}),
    },
  };
}

/** Tells the person who used the shortcut something only they see. */
export function answer(deps: ListenerDeps, args: ShortcutArgs, message: Outcome): Promise<void> {
  const body = args.body as { user?: { id?: string }; channel?: { id?: string } };
  return tell(
    {
      respond: args.respond,
      client: args.client,
      logger: deps.logger,
      userId: body.user?.id,
      slackChannel: body.channel?.id,
    },
    message,
  );
}

/** The metadata fields saying where the shortcut was used. */
export function shortcutWhere(used: UsedShortcut, at: number) {
  return {
    slackChannel: used.slackChannel,
    ...(used.message.threadTs ? { threadTs: used.message.threadTs } : {}),
    ...(used.responseUrl ? { responseUrl: used.responseUrl, responseUrlAt: at } : {}),
  };
}
