/**
 * The fields of Slack's payloads that listeners read, as zod schemas. Bolt's types say what
 * Slack should send; these say what we accept: a payload missing a field we need (or carrying
 * the wrong shape) is answered with an explanation and enqueues nothing, never a throw.
 */
import { z } from 'zod';
import { CardRef } from '../../operations/schemas.ts';

const id = z.string().min(1).max(500);

/**
 * Slack's `team` object: null for some Enterprise Grid installs. Read for its shape only: the
 * workspace a listener acts for is the one Bolt authorised (authorised.ts).
 */
const Team = z.looseObject({ id }).nullish();
const User = z.looseObject({ id, team_id: id.optional() });

export const CommandBody = z.looseObject({
  team_id: id,
  user_id: id,
  channel_id: id,
  trigger_id: id,
  response_url: z.url(),
  text: z.string().optional().default(''),
});
export type CommandBody = z.infer<typeof CommandBody>;

export const ButtonAction = z.looseObject({
  action_id: id,
  value: z.string().max(2000).optional(),
});
export type ButtonAction = z.infer<typeof ButtonAction>;

/** A click in a message (a post card, a list): where it was, and what the person can be answered on. */
export const MessageActionBody = z.looseObject({
  type: z.literal('block_actions'),
  team: Team,
  user: User,
  trigger_id: id,
  response_url: z.url().optional(),
  channel: z.looseObject({ id }).optional(),
  container: z
    .looseObject({
      channel_id: z.string().optional(),
      message_ts: z.string().optional(),
    })
    .optional(),
  message: z.looseObject({ ts: id, thread_ts: id.optional() }).optional(),
});
export type MessageActionBody = z.infer<typeof MessageActionBody>;

export const ViewStateValue = z.looseObject({
  value: z.string().nullish(),
  selected_option: z.looseObject({ value: z.string() }).nullish(),
});
export type ViewStateValue = z.infer<typeof ViewStateValue>;

export const ViewSubmissionBody = z.looseObject({
  type: z.literal('view_submission'),
  team: Team,
  user: User,
  view: z.looseObject({
    id,
    callback_id: id,
    private_metadata: z.string().optional().default(''),
    state: z.looseObject({
      values: z.record(z.string(), z.record(z.string(), ViewStateValue)),
    }),
  }),
});
export type ViewSubmissionBody = z.infer<typeof ViewSubmissionBody>;

export const MessageShortcutBody = z.looseObject({
  type: z.literal('message_action'),
  callback_id: id,
  trigger_id: id,
  team: Team,
  user: User,
  channel: z.looseObject({ id }),
  message_ts: id,
  message: z.looseObject({
    ts: id,
    text: z.string().optional().default(''),
    thread_ts: id.optional(),
  }),
  response_url: z.url().optional(),
});
export type MessageShortcutBody = z.infer<typeof MessageShortcutBody>;

export const GlobalShortcutBody = z.looseObject({
  type: z.literal('shortcut'),
  callback_id: id,
  trigger_id: id,
  team: Team,
  user: User,
});

export const MessageEvent = z.looseObject({
  type: z.literal('message'),
  subtype: z.string().optional(),
  channel: id,
  user: id.optional(),
  bot_id: z.string().optional(),
  text: z.string().optional().default(''),
  ts: id,
  thread_ts: id.optional(),
});
export type MessageEvent = z.infer<typeof MessageEvent>;

export const BlockSuggestionBody = z.looseObject({
  type: z.literal('block_suggestion'),
  team: Team,
  user: User,
  value: z.string().max(500).optional().default(''),
});
export type BlockSuggestionBody = z.infer<typeof BlockSuggestionBody>;

/* -------------------------------------------------------- private metadata */

/**
 * What a modal remembers between opening and submission (`private_metadata`, 3,000 characters).
 * `responseUrlAt` is when the response url was issued: it is valid for 30 minutes from then.
 */
const Where = {
  slackChannel: id,
  threadTs: id.optional(),
  responseUrl: z.url().optional(),
  responseUrlAt: z.number().int().optional(),
};

export const PostModalMetadata = z.object({ ...Where, fromMessage: CardRef.optional() });
export type PostModalMetadata = z.infer<typeof PostModalMetadata>;

export const CommentModalMetadata = z.object({ ...Where, postId: id, card: CardRef.optional() });
export type CommentModalMetadata = z.infer<typeof CommentModalMetadata>;

export const ResolveModalMetadata = CommentModalMetadata.extend({ commentId: id.optional() });
export type ResolveModalMetadata = z.infer<typeof ResolveModalMetadata>;

const METADATA_MAX = 3000;

/** JSON of the metadata; the response url is dropped if the whole would not fit Slack's limit. */
export function encodeMetadata(metadata: z.infer<typeof PostModalMetadata | typeof ResolveModalMetadata>) {
  const json = JSON.stringify(metadata);
  if (json.length <= METADATA_MAX) return json;
  const { responseUrl: _url, responseUrlAt: _at, ...rest } = metadata;
  return JSON.stringify(rest);
}

export function decodeMetadata<T>(schema: z.ZodType<T>, raw: string): T | undefined {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
