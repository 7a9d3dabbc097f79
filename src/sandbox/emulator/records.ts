/**
 * The emulator's stored records (its "database"), and the wire shapes it answers with.
 * Records are plain JSON-friendly data; timestamps are ISO strings from the emulator's clock.
 * Wire shapes follow spec §2 field by field (nothing more).
 */
import type { MemberRole } from '../../collab/schemas.ts';

export interface AvatarUrlSet {
  xs: string;
  sm: string;
  base: string;
  lg: string;
  xl: string;
  xxl: string;
}

/** spec §2.2. `type` is `app` for everything written with an organization key, `member` for a person. */
export interface AuthorRecord {
  id: string;
  name: string;
  type: 'app' | 'member';
  avatar_urls: AvatarUrlSet;
}

export interface ChannelRecord {
  id: string;
  name: string;
  created_at: string;
  /** A private channel the integration was not added to: invisible to the organization key. */
  private: boolean;
  /** Archived channels are not listed. */
  archived: boolean;
}

export interface MemberRecord {
  id: string;
  role: MemberRole;
  created_at: string;
  is_deactivated: boolean;
  /** A sort key of the members list (spec §4.3) that is not a field of Member (spec §2.9). */
  last_seen_at: string;
  /** Matched by the members search; not a field of Member (spec §2.9). */
  username: string;
  user: { id: string; avatar_urls: AvatarUrlSet; email: string; display_name: string };
}

export interface ResolutionRecord {
  resolved_at: string;
  /** `""` when the post was resolved without a message. */
  resolved_html: string;
  resolved_by: AuthorRecord;
  resolved_comment_id: string | null;
}

export interface PostRecord {
  id: string;
  /** Never null: the title sent, else derived from the content (render.ts), else `""`. */
  title: string;
  /** What was written. */
  content_markdown: string;
  /** What the service stores and answers: HTML converted on write. */
  content_html: string;
  created_at: string;
  last_activity_at: string;
  channel_id: string;
  author: AuthorRecord;
  resolution: ResolutionRecord | null;
}

export interface CommentRecord {
  id: string;
  post_id: string;
  parent_id: string | null;
  content_markdown: string;
  content_html: string;
  created_at: string;
  author: AuthorRecord;
}

export interface ThreadRecord {
  id: string;
  /** As sent; a blank one is computed from member names when answered. */
  title: string;
  created_at: string;
  updated_at: string;
  /** `null` until the first message. */
  last_message_at: string | null;
  creator: AuthorRecord;
  /** Members really in the thread (unknown and deactivated ids asked for were dropped). */
  member_ids: string[];
}

export interface MessageRecord {
  id: string;
  thread_id: string;
  parent_id: string | null;
  content_markdown: string;
  content_html: string;
  created_at: string;
  updated_at: string;
  /** `null` for system messages. */
  author: AuthorRecord | null;
  /** Deleted messages are still listed, with a placeholder content. */
  deleted: boolean;
}

// ---- wire shapes (spec §2) ----

export interface WireChannel {
  id: string;
  name: string;
}

export interface WireComment {
  id: string;
  content: string;
  created_at: string;
  replies_count: number;
  parent_id: string | null;
  subject_id: string;
  subject_type: string;
  author: AuthorRecord;
}

export interface WireResolution {
  resolved_at: string;
  resolved_html: string;
  resolved_by: AuthorRecord;
  resolved_comment: WireComment | null;
}

export interface WirePost {
  id: string;
  title: string;
  created_at: string;
  last_activity_at: string;
  url: string;
  content: string;
  comments_count: number;
  channel: WireChannel;
  author: AuthorRecord;
  resolution: WireResolution | null;
}

export interface WireThread {
  id: string;
  created_at: string;
  updated_at: string;
  group: boolean;
  last_message_at: string | null;
  members_count: number;
  /** null unless the thread has an image (threads made through the API have none). */
  avatar_urls: AvatarUrlSet | null;
  title: string;
  creator: AuthorRecord;
}

export interface WireMessage {
  id: string;
  content: string;
  created_at: string;
  updated_at: string;
  parent_id: string | null;
  thread_id: string;
  author: AuthorRecord | null;
}

export interface WireMember {
  id: string;
  role: string;
  created_at: string;
  is_deactivated: boolean;
  user: { id: string; avatar_urls: AvatarUrlSet; email: string; display_name: string };
}

export interface ListEnvelope<T> {
  data: T[];
  total_count: number;
  next_cursor: string | null;
  prev_cursor: string | null;
}
