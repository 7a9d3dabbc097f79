/**
 * The slash command. Parse, then answer at once: a usage problem or the help as an ephemeral
 * ack; the post form through views.open (the trigger_id lives 3 s); everything else becomes
 * one queued operation, acked with a "working on it" note that the worker's outcome replaces.
 * Nothing here waits on the collaboration API.
 */
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { tellNow } from '../../../jobs/delivery.ts';
import type { JobInput, Operation, Origin } from '../../../operations/schemas.ts';
import { helpMessage } from '../../../render/help.ts';
import { type Outcome, problem, working } from '../../../render/messages.ts';
import { createPostModal } from '../../../render/modals.ts';
import type { ListenerDeps } from '../deps.ts';
import { settingsRefusal } from '../guard.ts';
import { CommandBody, encodeMetadata } from '../payloads.ts';
import { enqueue, NOT_UNDERSTOOD, NOT_UNDERSTOOD_HINT, QUEUE_DOWN, withDeadline } from '../shared.ts';
import { type Command, readCommand } from './grammar.ts';

type Args = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

/** One operation to enqueue, and the note the person sees meanwhile. */
type Planned = { [O in Operation]: { operation: O; data: JobInput<O>; note: string } }[Operation];

export const ALREADY_ON_IT = 'Already on it.';

/** The linked channel only preselects the picker: never worth risking the trigger_id for. */
const LINK_DEADLINE_MS = 500;

export function collabCommand(deps: ListenerDeps) {
  return async ({ body, ack, client, respond }: Args): Promise<void> => {
    const ephemeral = (message: Outcome) => ack({ response_type: 'ephemeral', ...message });

    const read = CommandBody.safeParse(body);
    if (!read.success) {
      deps.logger.warn({ issues: read.error.issues.length }, 'malformed slash command payload');
      await ephemeral(problem(NOT_UNDERSTOOD, NOT_UNDERSTOOD_HINT));
      return;
    }
    const command = read.data;
    const { parsed, detail } = readCommand(command.text, deps.command);
    if (!parsed.ok) {
      await ephemeral(problem(parsed.error, parsed.usage));
      return;
    }

    if (parsed.command.kind === 'help') {
      await ack({ response_type: 'ephemeral', ...helpMessage(deps.command) });
      return;
    }

    const receivedAt = Date.now();
    if (parsed.command.kind === 'postModal') {
      await ack();
      const link = await withDeadline(
        deps.store.links.get(command.team_id, command.channel_id),
        LINK_DEADLINE_MS,
      );
      try {
        await client.views.open({
          trigger_id: command.trigger_id,
          view: createPostModal({
            ...(link ? { channel: { id: link.channelId, name: link.channelName } } : {}),
            privateMetadata: encodeMetadata({
              slackChannel: command.channel_id,
              responseUrl: command.response_url,
              responseUrlAt: receivedAt,
            }),
          }),
        });
      } catch (error) {
        deps.logger.warn({ err: error }, 'views.open failed for the post form');
        await tellNow(
          { respond, client, logger: deps.logger, userId: command.user_id, slackChannel: command.channel_id },
          problem(
            'I could not open the post form.',
            `Try again, or write the post inline: ${deps.command} post [#channel] <title> | <content>`,
          ),
        );
      }
      return;
    }

    const origin: Origin = {
      teamId: command.team_id,
      userId: command.user_id,
      slackChannel: command.channel_id,
      responseUrl: command.response_url,
      receivedAt,
      source: 'command',
    };
    // Linking and unlinking change settings: admins only (guard.ts); nothing is enqueued otherwise.
    const settingsChange = SETTINGS_COMMANDS[parsed.command.kind];
    const refused = settingsChange
      ? await settingsRefusal(deps, client, command.team_id, command.user_id)
      : undefined;
    if (refused) {
      await ephemeral(problem(refused));
      return;
    }
    const planned = plan(parsed.command, origin);
    if (!planned) {
      await ephemeral(problem(NOT_UNDERSTOOD, NOT_UNDERSTOOD_HINT));
      return;
    }
    const result = await enqueue(deps, planned.operation, planned.data, `cmd:${command.trigger_id}`);
    switch (result.status) {
      case 'queued':
        await ephemeral(working(planned.note));
        if (settingsChange) await auditCommand(deps, origin, settingsChange, detail);
        return;
      case 'duplicate':
        await ack({ response_type: 'ephemeral', text: ALREADY_ON_IT });
        return;
      case 'unavailable':
        await ephemeral(problem(QUEUE_DOWN));
        return;
      case 'invalid':
        await ephemeral(
          problem(
            'That request does not fit what I can send, so nothing was done.',
            `See ${deps.command} help.`,
          ),
        );
        return;
    }
  };
}

/**
 * Commands that change the channel's settings: admins only, and audited (App Home shows them)
 * under the name given here, e.g. `digest add requested`, with what followed as the detail.
 */
const SETTINGS_COMMANDS: Partial<Record<Command['kind'], string>> = {
  link: 'link',
  unlink: 'unlink',
  follow: 'follow',
  unfollow: 'unfollow',
  digestAdd: 'digest add',
  digestRemove: 'digest remove',
  digestRun: 'digest run',
};

/** Records a settings change as the parser read it; a failed write is only logged. */
async function auditCommand(
  deps: ListenerDeps,
  origin: Origin,
  name: string,
  detail: string | undefined,
): Promise<void> {
  await deps.store.audit
    .record(origin.teamId, {
      userId: origin.userId,
      action: `${name} requested`,
      slackChannel: origin.slackChannel,
      ...(detail ? { detail } : {}),
    })
    .catch((error: unknown) => deps.logger.warn({ err: error }, 'could not write the audit log'));
}

/** The operation a parsed command runs; undefined for the commands answered in place. */
export function plan(command: Command, origin: Origin): Planned | undefined {
  switch (command.kind) {
    case 'help':
    case 'postModal':
      return undefined;
    case 'post':
      return {
        operation: 'createPost',
        note: 'Creating the post…',
        data: {
          origin,
          ...(command.channel ? { channel: command.channel } : {}),
          ...(command.title ? { title: command.title } : {}),
          content: command.content,
        },
      };
    case 'resolve':
      return {
        operation: 'resolvePost',
        note: 'Resolving the post…',
        data: { origin, post: command.post, ...(command.message ? { message: command.message } : {}) },
      };
    case 'unresolve':
      return {
        operation: 'unresolvePost',
        note: 'Reopening the post…',
        data: { origin, post: command.post },
      };
    case 'reply':
      return {
        operation: 'createComment',
        note: 'Adding your comment…',
        data: {
          origin,
          post: command.post,
          ...(command.parentId ? { parentId: command.parentId } : {}),
          text: command.text,
        },
      };
    case 'dm':
      return {
        operation: 'sendDm',
        note: 'Sending your message…',
        data: { origin, slackUserIds: command.slackUserIds, text: command.text },
      };
    case 'dmThread':
      return {
        operation: 'sendDm',
        note: 'Sending your message…',
        data: { origin, threadId: command.threadId, text: command.text },
      };
    case 'posts':
      return {
        operation: 'listPosts',
        note: 'Looking up posts…',
        data: {
          origin,
          ...(command.channel ? { channel: command.channel } : {}),
          unresolvedOnly: command.unresolvedOnly,
        },
      };
    case 'channels':
      return {
        operation: 'listChannels',
        note: 'Looking up channels…',
        data: { origin, ...(command.name ? { name: command.name } : {}) },
      };
    case 'members':
      return {
        operation: 'listMembers',
        note: 'Looking up members…',
        data: {
          origin,
          ...(command.search ? { search: command.search } : {}),
          ...(command.roles ? { roles: command.roles } : {}),
        },
      };
    case 'thread':
      return {
        operation: 'listMessages',
        note: 'Fetching the thread…',
        data: { origin, threadId: command.threadId },
      };
    case 'link':
      return {
        operation: 'linkChannel',
        note: 'Linking this channel…',
        data: { origin, channel: command.channel, bridgeReplies: command.bridgeReplies },
      };
    case 'unlink':
      return { operation: 'unlinkChannel', note: 'Unlinking this channel…', data: { origin } };
    case 'follow':
      return {
        operation: 'followChannel',
        note: 'Following the linked channel…',
        data: { origin, ...(command.filters ? { filters: command.filters } : {}) },
      };
    case 'notify':
      return {
        operation: 'setNotify',
        note: command.on ? 'Turning your notifications on…' : 'Turning your notifications off…',
        data: { origin, on: command.on },
      };
    case 'followList':
      return { operation: 'listFollows', note: 'Looking up followed channels…', data: { origin } };
    case 'unfollow':
      return { operation: 'unfollowChannel', note: 'Unfollowing…', data: { origin } };
    case 'digestAdd':
      return {
        operation: 'addDigest',
        note: 'Scheduling the digest…',
        data: {
          origin,
          pattern: command.pattern,
          label: command.label,
          ...(command.tz ? { tz: command.tz } : {}),
          ...(command.filters ? { filters: command.filters } : {}),
        },
      };
    case 'digestList':
      return { operation: 'listDigests', note: 'Looking up digests…', data: { origin } };
    case 'digestRemove':
      return {
        operation: 'removeDigest',
        note: 'Removing the digest…',
        data: { origin, digestId: command.digestId },
      };
    case 'digestRun':
      return { operation: 'runDigest', note: 'Making the digest…', data: { origin } };
  }
}
