/**
 * The slash command. Parse, then answer at once: a usage problem or the help as an ephemeral
 * ack; the post form through views.open (the trigger_id lives 3 s); everything else becomes
 * one queued operation, acked with a "working on it" note that the worker's outcome replaces.
 * What each subcommand reads and does is its entry in subcommands/index.ts. Nothing here waits
 * on the collaboration API.
 */
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { tellNow } from '../../../engine/tellNow.ts';
import type { Origin } from '../../../operations/schemas.ts';
import { helpMessage } from '../../../render/help.ts';
import { type Outcome, problem, working } from '../../../render/messages.ts';
import { createPostModal } from '../../../render/modals.ts';
import { authorisedTeam } from '../authorised.ts';
import type { ListenerDeps } from '../deps.ts';
import { settingsRefusal } from '../guard.ts';
import { CommandBody, encodeMetadata } from '../payloads.ts';
import { enqueue, NOT_UNDERSTOOD, NOT_UNDERSTOOD_HINT, QUEUE_DOWN, withDeadline } from '../shared.ts';
import { type Command, readCommand } from './grammar.ts';
import type { Job, Plan } from './subcommand.ts';
import { HELP_GROUPS, subcommandOf } from './subcommands/index.ts';

type Args = SlackCommandMiddlewareArgs & AllMiddlewareArgs;

export const ALREADY_ON_IT = 'Already on it.';

/** The linked channel only preselects the picker: never worth risking the trigger_id for. */
const LINK_DEADLINE_MS = 500;

/** What a parsed command does: its subcommand's plan for it. */
export function plan(command: Command, origin: Origin): Plan {
  return subcommandOf(command).plan(command, origin);
}

export function collabCommand(deps: ListenerDeps) {
  return async (args: Args): Promise<void> => {
    const { body, ack, context } = args;
    const ephemeral = (message: Outcome) => ack({ response_type: 'ephemeral', ...message });

    const read = CommandBody.safeParse(body);
    // The workspace Bolt authorised (authorised.ts), never the body's `team_id`.
    const teamId = authorisedTeam(context);
    if (!read.success || !teamId) {
      deps.logger.warn({ issues: read.error?.issues.length ?? 0 }, 'malformed slash command payload');
      await ephemeral(problem(NOT_UNDERSTOOD, NOT_UNDERSTOOD_HINT));
      return;
    }
    const command = read.data;
    const { parsed, detail } = readCommand(command.text, deps.command);
    if (!parsed.ok) {
      await ephemeral(problem(parsed.error, parsed.usage));
      return;
    }
    const origin: Origin = {
      teamId,
      userId: command.user_id,
      slackChannel: command.channel_id,
      responseUrl: command.response_url,
      receivedAt: Date.now(),
      source: 'command',
    };
    const planned = plan(parsed.command, origin);
    if (!('answer' in planned)) await runJob(deps, args, command, origin, planned, detail);
    else if (planned.answer === 'help') await ephemeral(helpMessage(deps.command, HELP_GROUPS));
    else await openPostForm(deps, args, command, origin);
  };
}

/** Enqueues the job (a settings change: admins only, and audited) and acks with how it went. */
async function runJob(
  deps: ListenerDeps,
  { ack, client }: Args,
  command: CommandBody,
  origin: Origin,
  job: Job,
  detail: string,
): Promise<void> {
  const ephemeral = (message: Outcome) => ack({ response_type: 'ephemeral', ...message });
  // Settings changes (linking, following, digests): admins only (guard.ts); nothing is enqueued otherwise.
  const refused = job.settings
    ? await settingsRefusal(deps, client, origin.teamId, origin.userId)
    : undefined;
  if (refused) {
    await ephemeral(problem(refused));
    return;
  }
  const result = await enqueue(deps, job.operation, job.data, `cmd:${command.trigger_id}`);
  switch (result.status) {
    case 'queued':
      await ephemeral(working(job.note));
      if (job.settings) await auditCommand(deps, origin, job.settings, detail);
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
}

/** Acks, then opens the post form, the linked channel preselected when it is known in time. */
async function openPostForm(
  deps: ListenerDeps,
  { ack, client, respond }: Args,
  command: CommandBody,
  origin: Origin,
): Promise<void> {
  await ack();
  const link = await withDeadline(deps.store.links.get(origin.teamId, origin.slackChannel), LINK_DEADLINE_MS);
  try {
    await client.views.open({
      trigger_id: command.trigger_id,
      view: createPostModal({
        ...(link ? { channel: { id: link.channelId, name: link.channelName } } : {}),
        privateMetadata: encodeMetadata({
          slackChannel: command.channel_id,
          responseUrl: command.response_url,
          responseUrlAt: origin.receivedAt,
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
}

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
