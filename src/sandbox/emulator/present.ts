/**
 * Records to the wire shapes of spec §2: what the HTTP API and the act-as helpers answer, filled
 * as the real service fills them (SERVICE-FACTS.md): `content` is the HTML converted on write.
 */
import type {
  ChannelRecord,
  CommentRecord,
  MemberRecord,
  MessageRecord,
  PostRecord,
  ThreadRecord,
  WireChannel,
  WireComment,
  WireMember,
  WireMessage,
  WirePost,
  WireThread,
} from './records.ts';

/** The organization's slug in post urls: `{base_url}/{slug}/posts/{id}`. */
export const ORG_SLUG = 'acme';
/** What a deleted message's content reads. */
export const DELETED_MESSAGE_HTML = '<p><em>This message has been deleted.</em></p>';

/** What presenting needs of an organization's state (OrgState has it; state.ts is not imported, so no cycle). */
export interface PresentOrg {
  readonly baseUrl: string;
  readonly channels: ReadonlyMap<string, ChannelRecord>;
  readonly comments: ReadonlyMap<string, CommentRecord>;
  commentsOf(postId: string): CommentRecord[];
  repliesCount(commentId: string): number;
  threadTitle(thread: ThreadRecord): string;
}

/** Comment `subject_type` of a post, lower case as the service answers it. */
export const POST_SUBJECT_TYPE = 'post';

export function presentChannel(channel: ChannelRecord): WireChannel {
  return { id: channel.id, name: channel.name };
}

export function presentComment(org: PresentOrg, comment: CommentRecord): WireComment {
  return {
    id: comment.id,
    content: comment.content_html,
    created_at: comment.created_at,
    replies_count: org.repliesCount(comment.id),
    parent_id: comment.parent_id,
    subject_id: comment.post_id,
    subject_type: POST_SUBJECT_TYPE,
    author: structuredClone(comment.author),
  };
}

/** Post urls as the service makes them, `{base_url}/{organization slug}/posts/{id}` (opaque to the bot). */
export function postUrl(org: PresentOrg, postId: string): string {
  return `${org.baseUrl}/${ORG_SLUG}/posts/${postId}`;
}

export function presentPost(org: PresentOrg, post: PostRecord): WirePost {
  const channel = org.channels.get(post.channel_id);
  const resolution = post.resolution;
  const resolvedComment =
    resolution?.resolved_comment_id == null ? undefined : org.comments.get(resolution.resolved_comment_id);
  return {
    id: post.id,
    title: post.title,
    created_at: post.created_at,
    last_activity_at: post.last_activity_at,
    url: postUrl(org, post.id),
    content: post.content_html,
    comments_count: org.commentsOf(post.id).length,
    channel: channel ? presentChannel(channel) : { id: post.channel_id, name: '' },
    author: structuredClone(post.author),
    resolution: resolution
      ? {
          resolved_at: resolution.resolved_at,
          resolved_html: resolution.resolved_html,
          resolved_by: structuredClone(resolution.resolved_by),
          resolved_comment: resolvedComment ? presentComment(org, resolvedComment) : null,
        }
      : null,
  };
}

/** `group` is always true for threads made through the API; a blank title is computed; no image. */
export function presentThread(org: PresentOrg, thread: ThreadRecord): WireThread {
  return {
    id: thread.id,
    created_at: thread.created_at,
    updated_at: thread.updated_at,
    group: true,
    last_message_at: thread.last_message_at,
    members_count: thread.member_ids.length,
    avatar_urls: null,
    title: org.threadTitle(thread),
    creator: structuredClone(thread.creator),
  };
}

export function presentMessage(message: MessageRecord): WireMessage {
  return {
    id: message.id,
    content: message.deleted ? DELETED_MESSAGE_HTML : message.content_html,
    created_at: message.created_at,
    updated_at: message.updated_at,
    parent_id: message.parent_id,
    thread_id: message.thread_id,
    author: structuredClone(message.author),
  };
}

export function presentMember(member: MemberRecord): WireMember {
  return {
    id: member.id,
    role: member.role,
    created_at: member.created_at,
    is_deactivated: member.is_deactivated,
    user: { ...member.user, avatar_urls: { ...member.user.avatar_urls } },
  };
}
