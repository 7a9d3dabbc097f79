/**
 * zod schemas of the resources of the collaboration API v2 (spec §2).
 *
 * Objects are loose: fields the spec does not list pass through untouched.
 * Identifiers, timestamps and urls are opaque strings (their formats are "not shown").
 * Author `type` and comment `subject_type` stay plain strings: only `app` is known.
 */
import { z } from 'zod';

/** spec §2.1 */
export const AvatarUrls = z.looseObject({
  xs: z.string().optional(),
  sm: z.string().optional(),
  base: z.string().optional(),
  lg: z.string().optional(),
  xl: z.string().optional(),
  xxl: z.string().optional(),
});
export type AvatarUrls = z.infer<typeof AvatarUrls>;

/** spec §2.2: post author, comment author, message author, thread creator, resolver. */
export const Author = z.looseObject({
  id: z.string(),
  name: z.string(),
  avatar_urls: AvatarUrls.nullish(),
  /** `app` is known; other values are "not shown" and are kept as they are. */
  type: z.string().nullish(),
});
export type Author = z.infer<typeof Author>;

/** spec §2.3: embedded in a post, and item of the channel list. */
export const Channel = z.looseObject({
  id: z.string(),
  name: z.string(),
});
export type Channel = z.infer<typeof Channel>;

/** spec §2.6 */
export const Comment = z.looseObject({
  id: z.string(),
  content: z.string().nullish(),
  created_at: z.string().nullish(),
  replies_count: z.number().int().nullish(),
  parent_id: z.string().nullish(),
  subject_id: z.string().nullish(),
  /** Allowed values "not shown": kept as a plain string. */
  subject_type: z.string().nullish(),
  author: Author.nullish(),
});
export type Comment = z.infer<typeof Comment>;

/** spec §2.5 */
export const Resolution = z.looseObject({
  resolved_at: z.string().nullish(),
  resolved_html: z.string().nullish(),
  resolved_by: Author.nullish(),
  resolved_comment: Comment.nullish(),
});
export type Resolution = z.infer<typeof Resolution>;

/** spec §2.4. An unresolved post's `resolution` is "not shown": `null` and absent are both accepted. */
export const Post = z.looseObject({
  id: z.string(),
  title: z.string().nullish(),
  created_at: z.string().nullish(),
  last_activity_at: z.string().nullish(),
  url: z.string().nullish(),
  content: z.string().nullish(),
  comments_count: z.number().int().nullish(),
  channel: Channel.nullish(),
  author: Author.nullish(),
  resolution: Resolution.nullish(),
});
export type Post = z.infer<typeof Post>;

/** spec §2.7 */
export const Message = z.looseObject({
  id: z.string(),
  content: z.string().nullish(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  parent_id: z.string().nullish(),
  thread_id: z.string().nullish(),
  author: Author.nullish(),
});
export type Message = z.infer<typeof Message>;

/** spec §2.8 */
export const Thread = z.looseObject({
  id: z.string(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  group: z.boolean().nullish(),
  last_message_at: z.string().nullish(),
  members_count: z.number().int().nullish(),
  avatar_urls: AvatarUrls.nullish(),
  title: z.string().nullish(),
  creator: Author.nullish(),
});
export type Thread = z.infer<typeof Thread>;

/** spec §2.9, the member's `user` object. */
export const MemberUser = z.looseObject({
  id: z.string(),
  avatar_urls: AvatarUrls.nullish(),
  email: z.string().nullish(),
  display_name: z.string().nullish(),
});
export type MemberUser = z.infer<typeof MemberUser>;

/** Values usable as the members role filter (spec §2.9, §4.3). */
export const MEMBER_ROLES = ['admin', 'member', 'viewer', 'guest'] as const;
export const MemberRole = z.enum(MEMBER_ROLES);
export type MemberRole = z.infer<typeof MemberRole>;

/** spec §2.9. `role` is a plain string in responses: a service may know more roles than the filter. */
export const Member = z.looseObject({
  id: z.string(),
  role: z.string().nullish(),
  created_at: z.string().nullish(),
  is_deactivated: z.boolean().nullish(),
  user: MemberUser,
});
export type Member = z.infer<typeof Member>;

/** spec §2.10: the envelope of every list endpoint. */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({
    data: z.array(item),
    total_count: z.number().int().nullish(),
    next_cursor: z.string().nullish(),
    prev_cursor: z.string().nullish(),
  });
}
export interface Page<T> {
  data: T[];
  total_count?: number | null;
  next_cursor?: string | null;
  prev_cursor?: string | null;
}

export const PostPage = listEnvelope(Post);
export const MessagePage = listEnvelope(Message);
export const MemberPage = listEnvelope(Member);
export const ChannelPage = listEnvelope(Channel);

/** Sort keys and directions of spec §4. */
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
export const POST_SORT_KEYS = ['last_activity_at', 'published_at'] as const;
export const MESSAGE_SORT_KEYS = ['created_at'] as const;
export const MEMBER_SORT_KEYS = ['created_at', 'last_seen_at'] as const;
export const CHANNEL_SORT_KEYS = ['name', 'last_activity_at', 'created_at'] as const;

/** Page size bounds: default 50, maximum 50 (spec §8). */
export const PAGE_SIZE_MAX = 50;

/** Request bodies (spec §4). Only `content_markdown` is known to suffice for posts. */
export const CreatePostInput = z.object({
  content_markdown: z.string().min(1),
  channel_id: z.string().min(1).optional(),
  title: z.string().optional(),
});
export type CreatePostInput = z.infer<typeof CreatePostInput>;

export const ResolvePostInput = z.object({
  content_markdown: z.string().optional(),
  comment_id: z.string().optional(),
});
export type ResolvePostInput = z.infer<typeof ResolvePostInput>;

export const CreateCommentInput = z.object({
  content_markdown: z.string().min(1),
  parent_id: z.string().optional(),
});
export type CreateCommentInput = z.infer<typeof CreateCommentInput>;

export const CreateThreadInput = z.object({
  member_ids: z.array(z.string().min(1)).min(1),
  title: z.string().optional(),
});
export type CreateThreadInput = z.infer<typeof CreateThreadInput>;

export const CreateMessageInput = z.object({
  content_markdown: z.string().min(1),
  parent_id: z.string().optional(),
});
export type CreateMessageInput = z.infer<typeof CreateMessageInput>;

/** True when a post has a resolution; `null` and absent mean unresolved. */
export function isResolved(post: Pick<Post, 'resolution'>): boolean {
  return post.resolution !== null && post.resolution !== undefined;
}
