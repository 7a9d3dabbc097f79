/**
 * The in-memory state of one organization (one API key), and the writes of spec §4 applied to
 * it. The HTTP routes and the "act as a person" helpers call the same methods, so both mutate
 * state identically; only the author differs (the app for the bot's key, a person otherwise).
 * Counters (comments_count, replies_count, members_count) are derived, so they are always true.
 */
import type { MemberRole } from '../../collab/schemas.ts';
import { Actor } from './actor.ts';
import type {
  CreateCommentBody,
  CreateMessageBody,
  CreatePostBody,
  CreateThreadBody,
  ResolvePostBody,
} from './bodies.ts';
import { HttpError, notFound, unprocessable } from './http-error.ts';
import { IdGenerator } from './ids.ts';
import type {
  AuthorRecord,
  AvatarUrlSet,
  ChannelRecord,
  CommentRecord,
  MemberRecord,
  MessageRecord,
  PostRecord,
  ThreadRecord,
} from './records.ts';
import { markdownToHtml } from './render.ts';

export const APP_NAME = 'Collab for Slack';

export interface OrgStateInit {
  apiKey: string;
  /** The emulator's base url, used for post urls and avatar urls. */
  baseUrl: string;
  now: () => Date;
}

export interface MemberInit {
  display_name: string;
  email: string;
  role: MemberRole;
  is_deactivated?: boolean;
  created_at: Date;
  last_seen_at: Date;
}

export interface OrgSnapshot {
  channels: ChannelRecord[];
  members: MemberRecord[];
  posts: PostRecord[];
  comments: CommentRecord[];
  threads: ThreadRecord[];
  messages: MessageRecord[];
  app: AuthorRecord;
}

export class OrgState {
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly channels = new Map<string, ChannelRecord>();
  readonly members = new Map<string, MemberRecord>();
  readonly posts = new Map<string, PostRecord>();
  readonly comments = new Map<string, CommentRecord>();
  readonly threads = new Map<string, ThreadRecord>();
  readonly messages = new Map<string, MessageRecord>();
  /** The author of every write made through the HTTP API with this organization's key. */
  readonly app: AuthorRecord;
  readonly #ids: IdGenerator;
  readonly #now: () => Date;

  constructor(init: OrgStateInit) {
    this.apiKey = init.apiKey;
    this.baseUrl = init.baseUrl;
    this.#now = init.now;
    // Ids are namespaced by the key: two organizations never share ids, a reseed repeats them.
    this.#ids = new IdGenerator(init.apiKey);
    const appId = new IdGenerator(`${init.apiKey}:app`).next('app');
    this.app = { id: appId, name: APP_NAME, type: 'app', avatar_urls: this.avatarUrls(appId) };
  }

  now(): Date {
    return this.#now();
  }

  /** Empties every collection and restarts the id sequence (the seed then repeats its ids). */
  clear(): void {
    for (const map of [this.channels, this.members, this.posts, this.comments, this.threads, this.messages]) {
      map.clear();
    }
    this.#ids.reset();
  }

  avatarUrls(ownerId: string): AvatarUrlSet {
    const at = (size: string) => `${this.baseUrl}/avatars/${ownerId}/${size}.png`;
    return { xs: at('xs'), sm: at('sm'), base: at('base'), lg: at('lg'), xl: at('xl'), xxl: at('xxl') };
  }

  /** Acts as a person: the same writes as the HTTP API, authored by that member. */
  actAs(memberId: string): Actor {
    const member = this.members.get(memberId);
    if (!member) throw notFound(`Unknown member: ${memberId}`);
    if (member.is_deactivated) throw new HttpError(403, `Member is deactivated: ${memberId}`);
    return new Actor(this, member);
  }

  authorOf(member: MemberRecord): AuthorRecord {
    return {
      id: member.id,
      name: member.user.display_name,
      type: 'user',
      avatar_urls: member.user.avatar_urls,
    };
  }

  // ---- seeding ----

  addChannel(name: string, createdAt: Date): ChannelRecord {
    const channel: ChannelRecord = { id: this.#ids.next('chn'), name, created_at: createdAt.toISOString() };
    this.channels.set(channel.id, channel);
    return channel;
  }

  addMember(init: MemberInit): MemberRecord {
    const userId = this.#ids.next('usr');
    const member: MemberRecord = {
      id: this.#ids.next('mbr'),
      role: init.role,
      created_at: init.created_at.toISOString(),
      is_deactivated: init.is_deactivated ?? false,
      last_seen_at: init.last_seen_at.toISOString(),
      user: {
        id: userId,
        avatar_urls: this.avatarUrls(userId),
        email: init.email,
        display_name: init.display_name,
      },
    };
    this.members.set(member.id, member);
    return member;
  }

  // ---- lookups (404 for ids in the path, 422 for ids in a body) ----

  postOr404(postId: string): PostRecord {
    const post = this.posts.get(postId);
    if (!post) throw notFound(`Post not found: ${postId}`);
    return post;
  }

  threadOr404(threadId: string): ThreadRecord {
    const thread = this.threads.get(threadId);
    if (!thread) throw notFound(`Thread not found: ${threadId}`);
    return thread;
  }

  /** The first channel (seeded as `general`): where posts without `channel_id` go. */
  defaultChannel(): ChannelRecord {
    const first = this.channels.values().next();
    if (first.done) throw unprocessable('The organization has no channel');
    return first.value;
  }

  // ---- derived values ----

  commentsOf(postId: string): CommentRecord[] {
    return [...this.comments.values()].filter((comment) => comment.post_id === postId);
  }

  repliesCount(commentId: string): number {
    let count = 0;
    for (const comment of this.comments.values()) if (comment.parent_id === commentId) count += 1;
    return count;
  }

  /** A channel's last activity: the latest last_activity_at of its posts, else its creation. */
  channelLastActivity(channelId: string): string {
    let latest = this.channels.get(channelId)?.created_at ?? '';
    for (const post of this.posts.values()) {
      if (post.channel_id === channelId && Date.parse(post.last_activity_at) > Date.parse(latest)) {
        latest = post.last_activity_at;
      }
    }
    return latest;
  }

  // ---- writes of spec §4 ----

  createPost(author: AuthorRecord, body: CreatePostBody, at: Date = this.now()): PostRecord {
    let channel: ChannelRecord;
    if (body.channel_id === undefined) {
      channel = this.defaultChannel();
    } else {
      const found = this.channels.get(body.channel_id);
      if (!found) throw unprocessable(`Unknown channel_id: ${body.channel_id}`);
      channel = found;
    }
    const stamp = at.toISOString();
    const post: PostRecord = {
      id: this.#ids.next('pst'),
      title: body.title ?? null,
      content_markdown: body.content_markdown,
      created_at: stamp,
      last_activity_at: stamp,
      channel_id: channel.id,
      author,
      resolution: null,
    };
    this.posts.set(post.id, post);
    return post;
  }

  createComment(
    author: AuthorRecord,
    postId: string,
    body: CreateCommentBody,
    at: Date = this.now(),
  ): CommentRecord {
    const post = this.postOr404(postId);
    if (body.parent_id !== undefined) {
      const parent = this.comments.get(body.parent_id);
      if (!parent || parent.post_id !== post.id) {
        throw unprocessable(`parent_id is not a comment of this post: ${body.parent_id}`);
      }
    }
    const stamp = at.toISOString();
    const comment: CommentRecord = {
      id: this.#ids.next('cmt'),
      post_id: post.id,
      parent_id: body.parent_id ?? null,
      content_markdown: body.content_markdown,
      created_at: stamp,
      author,
    };
    this.comments.set(comment.id, comment);
    post.last_activity_at = stamp;
    return comment;
  }

  /**
   * Resolving an already resolved post is "not shown" in the spec. The emulator's choice:
   * the new resolution replaces the old one and the answer is 201 again, like a first resolve.
   */
  resolvePost(
    author: AuthorRecord,
    postId: string,
    body: ResolvePostBody,
    at: Date = this.now(),
  ): PostRecord {
    const post = this.postOr404(postId);
    if (body.comment_id !== undefined) {
      const comment = this.comments.get(body.comment_id);
      if (!comment || comment.post_id !== post.id) {
        throw unprocessable(`comment_id is not a comment of this post: ${body.comment_id}`);
      }
    }
    const stamp = at.toISOString();
    const message = body.content_markdown?.trim() ? body.content_markdown : undefined;
    post.resolution = {
      resolved_at: stamp,
      resolved_html: message === undefined ? null : markdownToHtml(message),
      resolved_by: author,
      resolved_comment_id: body.comment_id ?? null,
    };
    post.last_activity_at = stamp;
    return post;
  }

  /**
   * Unresolving an unresolved post is "not shown" in the spec. The emulator's choice: harmless,
   * 200 with the post (its last_activity_at still moves, as for any accepted unresolve).
   */
  unresolvePost(postId: string, at: Date = this.now()): PostRecord {
    const post = this.postOr404(postId);
    post.resolution = null;
    post.last_activity_at = at.toISOString();
    return post;
  }

  /**
   * Unknown and deactivated member ids are silently dropped (duplicates too): this models a
   * service that creates a thread with fewer members than asked. None left: 422.
   */
  createThread(
    creator: AuthorRecord,
    body: CreateThreadBody,
    at: Date = this.now(),
    creatorMemberId?: string,
  ): ThreadRecord {
    // A person creating a thread is in it; the app (the bot's key) is not an organization member.
    const asked = creatorMemberId === undefined ? body.member_ids : [creatorMemberId, ...body.member_ids];
    const memberIds = [...new Set(asked)].filter((id) => {
      const member = this.members.get(id);
      return member !== undefined && !member.is_deactivated;
    });
    if (memberIds.length <= (creatorMemberId === undefined ? 0 : 1)) {
      throw unprocessable('member_ids: no active member of this organization');
    }
    const stamp = at.toISOString();
    const id = this.#ids.next('thr');
    const thread: ThreadRecord = {
      id,
      title: body.title ?? null,
      created_at: stamp,
      updated_at: stamp,
      last_message_at: null,
      creator,
      member_ids: memberIds,
      avatar_urls: this.avatarUrls(id),
    };
    this.threads.set(thread.id, thread);
    return thread;
  }

  createMessage(
    author: AuthorRecord,
    threadId: string,
    body: CreateMessageBody,
    at: Date = this.now(),
  ): MessageRecord {
    const thread = this.threadOr404(threadId);
    if (body.parent_id !== undefined) {
      const parent = this.messages.get(body.parent_id);
      if (!parent || parent.thread_id !== thread.id) {
        throw unprocessable(`parent_id is not a message of this thread: ${body.parent_id}`);
      }
    }
    const stamp = at.toISOString();
    const message: MessageRecord = {
      id: this.#ids.next('msg'),
      thread_id: thread.id,
      parent_id: body.parent_id ?? null,
      content_markdown: body.content_markdown,
      created_at: stamp,
      updated_at: stamp,
      author,
    };
    this.messages.set(message.id, message);
    thread.last_message_at = stamp;
    thread.updated_at = stamp;
    return message;
  }

  /** A deep copy of every collection, in insertion order (the control API's `/state`). */
  snapshot(): OrgSnapshot {
    const copy = <T>(map: Map<string, T>): T[] => structuredClone([...map.values()]);
    return {
      channels: copy(this.channels),
      members: copy(this.members),
      posts: copy(this.posts),
      comments: copy(this.comments),
      threads: copy(this.threads),
      messages: copy(this.messages),
      app: structuredClone(this.app),
    };
  }
}
