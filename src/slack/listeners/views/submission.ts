/**
 * What the three modals share on submission: reading the payload and the private metadata,
 * reading inputs, enqueuing (one job per view id), and the answers — inline errors keep the
 * modal open; a modal without sane metadata is closed and the person is told (never silently).
 */
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import type { z } from 'zod';
import { tellNow } from '../../../engine/tellNow.ts';
import { usableResponseUrl } from '../../../operations/responseUrl.ts';
import type { JobInput, Operation, Origin } from '../../../operations/schemas.ts';
import { problem } from '../../../render/messages.ts';
import { authorisedTeam } from '../authorised.ts';
import type { ListenerDeps } from '../deps.ts';
import { decodeMetadata, ViewSubmissionBody } from '../payloads.ts';
import { type EnqueueOutcome, enqueue, QUEUE_DOWN } from '../shared.ts';

export type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

export interface Submission<M> {
  teamId: string;
  userId: string;
  viewId: string;
  metadata: M;
  /** the trimmed text of an input, '' when empty or absent */
  text(input: { block: string; action: string }): string;
  /** the value of an input's selected option */
  selected(input: { block: string; action: string }): string | undefined;
}

/**
 * Reads a submission; on a malformed payload or metadata it closes the modal, tells the person
 * and answers undefined.
 */
export async function readSubmission<M extends { slackChannel: string }>(
  deps: ListenerDeps,
  args: ViewArgs,
  schema: z.ZodType<M>,
  what: string,
): Promise<Submission<M> | undefined> {
  const read = ViewSubmissionBody.safeParse(args.body);
  // The workspace Bolt authorised: for a view, its `app_installed_team_id` (authorised.ts).
  const teamId = authorisedTeam(args.context);
  const metadata = read.success ? decodeMetadata(schema, read.data.view.private_metadata) : undefined;
  if (!read.success || !teamId || !metadata) {
    deps.logger.warn({ what, payload: read.success }, 'malformed view submission');
    await args.ack();
    await tellNow(
      { client: args.client, logger: deps.logger, userId: args.body.user?.id },
      problem(
        `Your ${what} could not be submitted: the form came back without what I need to know where it belongs, so nothing was done.`,
        'Open the form again and resubmit; copy your text first if it is long.',
      ),
    );
    return undefined;
  }
  const values = read.data.view.state.values;
  return {
    teamId,
    userId: read.data.user.id,
    viewId: read.data.view.id,
    metadata,
    text: (input) => (values[input.block]?.[input.action]?.value ?? '').trim(),
    selected: (input) => values[input.block]?.[input.action]?.selected_option?.value ?? undefined,
  };
}

/** Where a modal was opened, as its private metadata says. */
type ModalPlace = {
  slackChannel: string;
  threadTs?: string | undefined;
  responseUrl?: string | undefined;
  responseUrlAt?: number | undefined;
};

/**
 * Enqueues the modal's operation, one job per view id (a resubmission enqueues nothing new), with
 * `data` built around the origin (where the modal was opened); then answers the modal: closed
 * once queued, kept open with an error on `block` otherwise.
 */
export async function enqueueSubmission<O extends Operation>(
  deps: ListenerDeps,
  args: ViewArgs,
  submission: Submission<ModalPlace>,
  operation: O,
  data: (origin: Origin) => JobInput<O>,
  block: string,
): Promise<void> {
  const result = await enqueue(
    deps,
    operation,
    data(modalOrigin(submission, Date.now())),
    `view:${submission.viewId}`,
  );
  await answerEnqueued(args, result, block);
}

/** The origin of an operation submitted from a modal: where the modal was opened. */
function modalOrigin(submission: Submission<ModalPlace>, receivedAt: number): Origin {
  const { metadata } = submission;
  const responseUrl = usableResponseUrl(metadata, receivedAt);
  return {
    teamId: submission.teamId,
    userId: submission.userId,
    slackChannel: metadata.slackChannel,
    ...(metadata.threadTs ? { threadTs: metadata.threadTs } : {}),
    // Dated from when Slack issued it (the opener), not from this submission.
    ...(responseUrl
      ? {
          responseUrl,
          ...(metadata.responseUrlAt !== undefined ? { responseUrlAt: metadata.responseUrlAt } : {}),
        }
      : {}),
    receivedAt,
    source: 'modal',
  };
}

/** Inline errors on the modal's blocks: it stays open for the person to fix. */
export async function showErrors(args: ViewArgs, errors: Record<string, string>): Promise<void> {
  await args.ack({ response_action: 'errors', errors });
}

/** Closes the modal once queued (or already queued); keeps it open with an error otherwise. */
async function answerEnqueued(args: ViewArgs, result: EnqueueOutcome, block: string): Promise<void> {
  if (result.status === 'queued' || result.status === 'duplicate') {
    await args.ack();
    return;
  }
  await showErrors(args, {
    [block]:
      result.status === 'unavailable'
        ? QUEUE_DOWN
        : 'This could not be submitted as it is; check the fields and try again.',
  });
}

export function tooLong(text: string, max: number): string | undefined {
  return text.length > max
    ? `That is ${text.length.toLocaleString('en')} characters; the limit is ${max.toLocaleString('en')}.`
    : undefined;
}
