/**
 * The shape a Slack request body must have before Bolt is given it. Bolt reads the fields it
 * classifies, authorises and routes by without checking them: a validly signed `payload=null`
 * threw outside any handler (the process died), `block_actions` without `user` or with `actions`
 * that is not an array threw inside (500), and a body Bolt could not classify was held 3 s and
 * answered 404. Every body is checked here first, in the order Bolt classifies (helpers.js
 * `getTypeAndConversation`); what fails is refused at once (malformed.ts).
 *
 * Only the envelope is checked, the fields Bolt and the routers read: what a listener reads
 * beyond that it validates itself (listeners/payloads.ts) and answers in words.
 */
import { z } from 'zod';

/** A JSON object (never null, never an array). */
const object = z.looseObject({});
/** Present or absent, never null nor a string where Bolt reads properties of it. */
const optionalObject = object.optional();
/** `team` and `enterprise`: null on some Enterprise Grid payloads. */
const nullableObject = object.nullable().optional();
const text = z.string().min(1);

/** What every interaction carries: Bolt reads `user.id`, `user.team_id`, `team.id`, `channel.id`. */
const Interaction = {
  user: z.looseObject({ id: text }),
  team: nullableObject,
  enterprise: nullableObject,
  channel: optionalObject,
  response_url: z.string().optional(),
  response_urls: z.array(z.looseObject({ response_url: z.string() })).optional(),
  function_data: optionalObject,
};

const EventEnvelope = z.looseObject({
  team_id: z.string().optional(),
  enterprise_id: z.string().nullable().optional(),
  // Bolt reads the first authorization's team and enterprise.
  authorizations: z.array(object).optional(),
  event: z.looseObject({
    type: text,
    channel: z.union([z.string(), object]).optional(),
    user: z.union([z.string(), object]).optional(),
    item: optionalObject,
    subteam: optionalObject,
  }),
});

const Command = z.looseObject({
  command: text,
  team_id: z.string().optional(),
  user_id: z.string().optional(),
  channel_id: z.string().optional(),
  response_url: z.string().optional(),
});

const BlockSuggestion = z.looseObject({ ...Interaction, action_id: text });

/** The block actions this app sends: buttons and selects with an `action_id`, at least one. */
const BlockActions = z.looseObject({
  ...Interaction,
  actions: z.array(z.looseObject({ action_id: text })).min(1),
});

const Shortcut = z.looseObject({ ...Interaction, callback_id: text });

const ViewSubmission = z.looseObject({
  ...Interaction,
  view: z.looseObject({ callback_id: z.string() }),
});

const ByType: Record<string, z.ZodType> = {
  block_suggestion: BlockSuggestion,
  block_actions: BlockActions,
  shortcut: Shortcut,
  message_action: Shortcut,
  view_submission: ViewSubmission,
  view_closed: ViewSubmission,
};

/** Slack's own bodies that Bolt answers (or leaves) before any listener: never refused. */
const SLACK_NOTICES = new Set(['url_verification', 'app_rate_limited']);

/** Why Bolt must not be given `body`, or undefined when it may. */
export function malformedReason(body: unknown): string | undefined {
  const envelope = object.safeParse(body);
  if (!envelope.success) return `the body is ${describe(body)}, not an object`;
  const fields = envelope.data;
  const type = typeof fields.type === 'string' ? fields.type : undefined;
  if (fields.ssl_check === '1' || (type !== undefined && SLACK_NOTICES.has(type))) return undefined;
  const [kind, schema] = classify(fields, type ?? '');
  if (!schema) return `a ${kind} body of type ${describe(fields.type)} is not something this app handles`;
  const parsed = schema.safeParse(body);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  return `${kind}: ${issue.path.join('.') || '(body)'}: ${issue.message}`;
}

/** The kind of a body, in Bolt's order of tests, and the schema its envelope must meet. */
function classify(fields: Record<string, unknown>, type: string): [string, z.ZodType | undefined] {
  if (fields.event !== undefined) return ['event', EventEnvelope];
  if (fields.command !== undefined) return ['command', Command];
  // Options and actions of legacy dialogs and attachments: this app sends none.
  if (fields.name !== undefined || type === 'block_suggestion')
    return ['options', type === 'block_suggestion' ? BlockSuggestion : undefined];
  if (fields.actions !== undefined || type === 'dialog_submission')
    return ['actions', type === 'block_actions' ? BlockActions : undefined];
  return [type || 'untyped', Object.hasOwn(ByType, type) ? ByType[type] : undefined];
}

/** A value's kind for a log line: never the value itself (it came from outside). */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return value.length <= 40 && /^[\w.-]*$/.test(value) ? `"${value}"` : 'a string';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
