/**
 * Records to the wire shapes of spec §2: what the HTTP API and the act-as helpers answer.
 * `content` is rendered HTML (its format is "not shown"; HTML is the emulator's choice).
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
import { markdownToHtml } from './render.ts';
import type { OrgState } from './state.ts';

/** Comment `subject_type` values are "not shown"; the emulator's choice for a post is `Post`. */
export const POST_SUBJECT_TYPE = 'Post';

export function presentChannel(channel: ChannelRecord): WireChannel {
  return { id: channel.id, name: channel.name };
}

export function presentComment(org: OrgState, comment: CommentRecord): WireComment {
  return {
    id: comment.id,
    content: markdownToHtml(comment.content_markdown),
    created_at: comment.created_at,
    replies_count: org.repliesCount(comment.id),
    parent_id: comment.parent_id,
    subject_id: comment.post_id,
    subject_type: POST_SUBJECT_TYPE,
    author: structuredClone(comment.author),
  };
}

/** Post urls are absolute and opaque to the bot: `{base_url}/p/{id}`. */
export function postUrl(org: OrgState, postId: string): string {
  return `${org.baseUrl}/p/${postId}`;
}

export function presentPost(org: OrgState, post: PostRecord): WirePost {
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
    content: markdownToHtml(post.content_markdown),
    comments_count: org.commentsOf(post.id).length,
    channel: channel ? presentChannel(channel) : { id: post.channel_id, name: '' },
    author: structuredClone(post.author),
    // An unresolved post's resolution is "not shown"; the emulator answers `null`.
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

/**
 * `group` is true when more than two participants take part: the members, plus the app when
 * it created the thread (a person creating a thread is one of its members).
 */
export function presentThread(thread: ThreadRecord): WireThread {
  const participants = thread.member_ids.length + (thread.creator.type === 'app' ? 1 : 0);
  return {
    id: thread.id,
    created_at: thread.created_at,
    updated_at: thread.updated_at,
    group: participants > 2,
    last_message_at: thread.last_message_at,
    members_count: thread.member_ids.length,
    avatar_urls: { ...thread.avatar_urls },
    title: thread.title,
    creator: structuredClone(thread.creator),
  };
}

export function presentMessage(message: MessageRecord): WireMessage {
  return {
    id: message.id,
    content: markdownToHtml(message.content_markdown),
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
