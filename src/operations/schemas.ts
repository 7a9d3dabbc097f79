/**
 * The operations the worker runs, one zod schema each. A job's name is its operation.
 *
 * Job data is validated once, before it enters a queue: by enqueue (operations/queue.ts) and,
 * for job schedulers and pollers, by schedules.upsert (jobs/schedules.ts), which stores the
 * parsed data its ticks and polls carry. The worker trusts what it reads.
 *
 * So a job queued by an earlier release must still read: a schema only gains optional fields
 * (not a required one, nor a default, which an older job would lack), or the change gets a new
 * job name. A field is never removed, renamed or narrowed while jobs carrying it may be queued.
 */
import { z } from 'zod';
import { PostFilters } from '../collab/postFilters.ts';
import { MemberRole } from '../collab/schemas.ts';
import { TEXT_MAX, TITLE_MAX } from './limits.ts';
import { withoutControls } from './text.ts';

const id = z.string().min(1).max(500);

/** Where the person acted in Slack, and so where the outcome goes. */
export const Origin = z.object({
  teamId: id,
  userId: id,
  /** the Slack channel the person acted in */
  slackChannel: id,
  /** set when the person acted inside a Slack thread */
  threadTs: id.optional(),
  /** valid for 30 minutes and 5 uses from when Slack issued it (operations/responseUrl.ts) */
  responseUrl: z.url().optional(),
  /** when Slack issued `responseUrl` (a modal's is its opener's); absent: `receivedAt` */
  responseUrlAt: z.number().int().optional(),
  receivedAt: z.number().int(),
  /** what the person did: shapes the wording of the outcome */
  source: z.enum(['command', 'button', 'modal', 'shortcut', 'event']),
});
export type Origin = z.infer<typeof Origin>;

/** A post named by id or by a url the bot has seen. */
export const PostRef = z.union([z.object({ id }), z.object({ url: z.string().min(1).max(3000) })]);
export type PostRef = z.infer<typeof PostRef>;

/** A collaboration channel named by id or by name. */
export const ChannelRef = z.union([z.object({ id }), z.object({ name: z.string().min(1).max(200) })]);
export type ChannelRef = z.infer<typeof ChannelRef>;

/** A Slack message showing a post: the card to update in place. */
export const CardRef = z.object({ slackChannel: id, ts: id });
export type CardRef = z.infer<typeof CardRef>;

/** People's words, without control or bidi-override characters (text.ts), at most `max` long. */
const words = (max: number) => z.string().transform(withoutControls).pipe(z.string().max(max));
const text = z.string().transform(withoutControls).pipe(z.string().min(1).max(TEXT_MAX));

export const CreatePostJob = z.object({
  origin: Origin,
  /** absent: the channel linked to origin.slackChannel */
  channel: ChannelRef.optional(),
  title: words(TITLE_MAX).optional(),
  content: text,
  /** the Slack message a post was made from (shortcut), to link back to it */
  fromMessage: CardRef.optional(),
});

export const ResolvePostJob = z.object({
  origin: Origin,
  post: PostRef,
  message: words(TEXT_MAX).optional(),
  commentId: id.optional(),
  card: CardRef.optional(),
});

export const UnresolvePostJob = z.object({
  origin: Origin,
  post: PostRef,
  card: CardRef.optional(),
});

export const CreateCommentJob = z.object({
  origin: Origin,
  post: PostRef,
  parentId: id.optional(),
  text,
  /** the Slack reply this comment bridges, remembered so shortcuts can find the comment */
  reply: CardRef.optional(),
  card: CardRef.optional(),
});

export const SendDmJob = z.union([
  z.object({ origin: Origin, slackUserIds: z.array(id).min(1).max(20), text }),
  z.object({
    origin: Origin,
    threadId: id,
    text,
    /** a Slack reply to a mirrored message answers that message */
    parentId: id.optional(),
  }),
]);

const ListPaging = z.object({
  cursor: z.string().max(2000).optional(),
  direction: z.enum(['next', 'prev']).optional(),
  /** the forward cursors of the pages before this one (`''`: the first page), for Previous */
  trail: z.array(z.string().max(2000)).max(200).optional(),
  /** the ephemeral list message to replace, when paging */
  replace: z.boolean().optional(),
});

export const ListPostsJob = ListPaging.extend({
  origin: Origin,
  channel: ChannelRef.optional(),
  unresolvedOnly: z.boolean().default(false),
});
export const ListChannelsJob = ListPaging.extend({ origin: Origin, name: z.string().max(200).optional() });
export const ListMembersJob = ListPaging.extend({
  origin: Origin,
  search: z.string().max(200).optional(),
  roles: z.array(MemberRole).optional(),
});
export const ListMessagesJob = ListPaging.extend({ origin: Origin, threadId: id });

export const LinkChannelJob = z.object({ origin: Origin, channel: ChannelRef, bridgeReplies: z.boolean() });
export const UnlinkChannelJob = z.object({ origin: Origin });

// ---- digests, unfurls and App Home (what happens in the service comes back to Slack) ----

/** `/collab digest add`: the schedule is already parsed (grammar.ts); tz absent: the person's Slack time zone. */
export const AddDigestJob = z.object({
  origin: Origin,
  pattern: z.string().min(9).max(200),
  label: z.string().min(1).max(300),
  tz: z.string().min(1).max(64).optional(),
  filters: PostFilters.optional(),
});
export const ListDigestsJob = z.object({ origin: Origin });
export const RemoveDigestJob = z.object({ origin: Origin, digestId: id });
/** `/collab digest run`: a digest of the Slack channel now, covering what changed since its last one. */
export const RunDigestJob = z.object({ origin: Origin });
/** A scheduler's tick (`schedulerId(teamId, 'digest', digestId)`); `slot` only when enqueued by hand. */
export const SendDigestJob = z.object({
  teamId: id,
  digestId: id,
  slot: z.number().int().positive().optional(),
});

/** `link_shared`: the links of one message (or composer) to unfurl. */
export const UnfurlLinksJob = z.object({
  teamId: id,
  slackChannel: id,
  messageTs: id,
  unfurlId: id.optional(),
  source: z.enum(['conversations_history', 'composer']).optional(),
  links: z
    .array(z.object({ url: z.string().min(1).max(3000), domain: z.string().max(500) }))
    .min(1)
    .max(20),
});

/** App Home of one person; the listener says what only Slack knows cheaply (may they manage settings). */
export const PublishHomeJob = z.object({
  teamId: id,
  userId: id,
  canManage: z.boolean().default(false),
  mode: z.enum(['single', 'multi']).default('single'),
  command: z.string().min(1).max(40).default('/collab'),
});

// ---- channel feeds and thread mirroring (what happens in the service comes back to Slack) ----

/** `/collab follow` / `unfollow`: the Slack channel of the origin follows its linked channel, or stops. */
export const FollowChannelJob = z.object({
  origin: Origin,
  /** which new posts get a card; absent: keep the follow's (none for a new follow), `{}`: every post */
  filters: PostFilters.optional(),
});
/** `/collab follow list`: the workspace's followed Slack channels, with their filters. */
export const ListFollowsJob = z.object({ origin: Origin });
export const UnfollowChannelJob = z.object({ origin: Origin });
/** A feed scheduler's tick (`schedulerId(teamId, 'feed', slackChannel)`). */
export const PollFeedJob = z.object({ teamId: id, slackChannel: id });
/** A mirrored thread's scheduler tick (`schedulerId(teamId, 'thread', threadId)`). */
export const PollThreadJob = z.object({ teamId: id, threadId: id });

// ---- Slack channels that come and go ----

/**
 * A Slack channel was archived, deleted or the bot left it (its feed and digests pause), or it
 * was unarchived or the bot joined it again (they resume). `at`: epoch ms of the change (the
 * event's time), so a change that arrives late never undoes a newer one.
 */
export const SlackChannelChangedJob = z.object({
  teamId: id,
  slackChannel: id,
  change: z.enum(['archived', 'deleted', 'removed', 'unarchived', 'joined']),
  at: z.number().int().nonnegative(),
});

// ---- Workflow Builder steps (Slack custom steps) ----

/**
 * A `function_executed` event: run the step `callbackId` with Slack's `inputs`, then complete it
 * (`functions.completeSuccess` / `completeError`) with the execution's own token, which lives as
 * long as the execution. Keyed by `executionId`: a redelivered event is the same job.
 */
export const RunWorkflowStepJob = z.object({
  teamId: id,
  callbackId: id,
  executionId: id,
  token: z.string().min(1).max(500),
  inputs: z.record(z.string(), z.unknown()),
});
/** A tick of "Wait until a post is resolved" (`schedulerId(teamId, 'wait', executionId)`). */
export const CheckWorkflowWaitJob = z.object({ teamId: id, executionId: id });

// ---- personal notifications ----

/** `/collab notify on|off` or the App Home toggle. */
export const SetNotifyJob = z.object({
  origin: Origin,
  on: z.boolean(),
  /** from App Home: publish it again, as the listener saw it, instead of a message */
  home: z
    .object({ canManage: z.boolean(), mode: z.enum(['single', 'multi']), command: z.string().min(1).max(40) })
    .optional(),
});
/** The end of a person's quiet hours (`schedulerId(teamId, 'notify', userId)`): one summary of what was held. */
export const FlushNotificationsJob = z.object({ teamId: id, userId: id });

export const JOB_SCHEMAS = {
  createPost: CreatePostJob,
  resolvePost: ResolvePostJob,
  unresolvePost: UnresolvePostJob,
  createComment: CreateCommentJob,
  sendDm: SendDmJob,
  listPosts: ListPostsJob,
  listChannels: ListChannelsJob,
  listMembers: ListMembersJob,
  listMessages: ListMessagesJob,
  linkChannel: LinkChannelJob,
  unlinkChannel: UnlinkChannelJob,
  addDigest: AddDigestJob,
  listDigests: ListDigestsJob,
  removeDigest: RemoveDigestJob,
  runDigest: RunDigestJob,
  sendDigest: SendDigestJob,
  unfurlLinks: UnfurlLinksJob,
  publishHome: PublishHomeJob,
  followChannel: FollowChannelJob,
  listFollows: ListFollowsJob,
  unfollowChannel: UnfollowChannelJob,
  pollFeed: PollFeedJob,
  pollThread: PollThreadJob,
  slackChannelChanged: SlackChannelChangedJob,
  runWorkflowStep: RunWorkflowStepJob,
  checkWorkflowWait: CheckWorkflowWaitJob,
  setNotify: SetNotifyJob,
  flushNotifications: FlushNotificationsJob,
} as const;

export type Operation = keyof typeof JOB_SCHEMAS;
export type JobData<O extends Operation> = z.infer<(typeof JOB_SCHEMAS)[O]>;
export type JobInput<O extends Operation> = z.input<(typeof JOB_SCHEMAS)[O]>;
export const OPERATIONS = Object.keys(JOB_SCHEMAS) as Operation[];

export function isOperation(name: string): name is Operation {
  return Object.hasOwn(JOB_SCHEMAS, name);
}
