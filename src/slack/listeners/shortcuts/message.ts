/**
 * What a message shortcut tells us, validated, how to answer the person who used it, and the
 * skeleton every message shortcut shares: ack, read the payload, find what it acts on, open a form.
 */
import type { AllMiddlewareArgs, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import type { View } from '@slack/types';
import { tellNow } from '../../../engine/tellNow.ts';
import { type Outcome, problem } from '../../../render/messages.ts';
import { authorisedTeam } from '../authorised.ts';
import type { ListenerDeps } from '../deps.ts';
import { MessageShortcutBody } from '../payloads.ts';
import { NOT_UNDERSTOOD, NOT_UNDERSTOOD_HINT, STORE_DOWN } from '../shared.ts';

export type ShortcutArgs = SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs;

export interface UsedShortcut {
  teamId: string;
  userId: string;
  slackChannel: string;
  triggerId: string;
  responseUrl?: string;
  message: { ts: string; text: string; threadTs?: string };
}

/** The shortcut's payload, read for the workspace Bolt authorised (`teamId`). */
export function readShortcut(body: unknown, teamId: string | undefined): UsedShortcut | undefined {
  const read = MessageShortcutBody.safeParse(body);
  if (!read.success || !teamId) return undefined;
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
  return tellNow(
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

/** The form to open, or what to tell the person instead. */
export type Prepared = { view: View } | { tell: Outcome };

/** How one message shortcut differs from the others. */
export interface MessageShortcutSpec {
  /** in the log line of a payload that does not read: "malformed <name> shortcut" */
  name: string;
  /** in the log line of a form that did not open: "views.open failed for <opening>" */
  opening: string;
  /** the form, as in "I could not open the <form>." */
  form: string;
  /** What the shortcut acts on, as the form to open; `receivedAt` dates the response_url. */
  prepare(used: UsedShortcut, args: ShortcutArgs, receivedAt: number): Promise<Prepared>;
}

/**
 * A message shortcut: acks, reads the payload (a malformed one is told, not dropped), prepares
 * the form, and opens it while the trigger_id lives; a form that does not open is told.
 */
export function messageShortcut(deps: ListenerDeps, spec: MessageShortcutSpec) {
  return async (args: ShortcutArgs): Promise<void> => {
    await args.ack();
    const used = readShortcut(args.body, authorisedTeam(args.context));
    if (!used) {
      deps.logger.warn(`malformed ${spec.name} shortcut`);
      await answer(deps, args, problem(NOT_UNDERSTOOD, NOT_UNDERSTOOD_HINT));
      return;
    }
    const prepared = await spec.prepare(used, args, Date.now());
    if ('tell' in prepared) {
      await answer(deps, args, prepared.tell);
      return;
    }
    try {
      await args.client.views.open({ trigger_id: used.triggerId, view: prepared.view });
    } catch (error) {
      deps.logger.warn({ err: error }, `views.open failed for ${spec.opening}`);
      await answer(deps, args, problem(`I could not open the ${spec.form}.`, 'Use the shortcut again.'));
    }
  };
}

/**
 * Looks up in the store what a shortcut acts on: nothing there is told as `missing`, and a
 * store that does not answer is told too.
 */
export async function fromStore<T>(
  deps: ListenerDeps,
  lookup: () => Promise<T | undefined>,
  missing: Outcome,
): Promise<{ found: T } | { tell: Outcome }> {
  let found: T | undefined;
  try {
    found = await lookup();
  } catch (error) {
    deps.logger.error({ err: error }, 'could not look up the post of a message');
    return { tell: problem(STORE_DOWN) };
  }
  return found === undefined ? { tell: missing } : { found };
}
