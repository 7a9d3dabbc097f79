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
import { forbidden, HttpError, notFound, unprocessable } from './http-error.ts';
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
import { convertContent, deriveTitle, type Mentionable } from './render.ts';

export const APP_NAME = 'Collab for Slack';
/** Thread titles longer than this are refused. */
export const THREAD_TITLE_MAX = 80;

export interface OrgStateInit {
  apiKey: string;
  /** The emulator's base url, used for post urls and avatar urls. */
  baseUrl: string;
  now: () => Date;
}

export interface ChannelInit {
  /** A private channel the integration was not added to. */
  private?: boolean;
  archived?: boolean;
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
  /**
   * The service's markdown converter is down: content written meanwhile is stored as the raw
   * markdown wrapped in `<p>…</p>` (and no title is derived from it).
   */
  converterDown = false;
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
    this.converterDown = false;
    this.#ids.reset();
  }

  avatarUrls(ownerId: string): AvatarUrlSet {
    const at = (size: string) => `${this.baseUrl}/avatars/${ownerId}/${size}.png`;
    return { xs: at('xs'), sm: at('sm'), base: at('base'), lg: at('lg'), xl: at('xl'), xxl: at('xxl') };
  }

  /** Acts as a person: the same writes as the HTTP API, authored by that member. */
  actAs(memberId: string): Actor {
    const member = this.members.get(memberId);
    if (!member) throw new HttpError(404, `Unknown member: ${memberId}`);
    if (member.is_deactivated) throw new HttpError(403, `Member is deactivated: ${memberId}`);
    return new Actor(this, member);
  }

  authorOf(member: MemberRecord): AuthorRecord {
    return {
      id: member.id,
      name: member.user.display_name,
      type: 'member',
      avatar_urls: member.user.avatar_urls,
    };
  }

  // ---- seeding ----

  addChannel(name: string, createdAt: Date, init: ChannelInit = {}): ChannelRecord {
    const channel: ChannelRecord = {
      id: this.#ids.next('chn'),
      name,
      created_at: createdAt.toISOString(),
      private: init.private ?? false,
      archived: init.archived ?? false,
    };
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
      username: init.email.split('@')[0] ?? init.email,
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

  // ---- lookups ----

  /** A channel the organization key sees (not a private one it was not added to). */
  visibleChannel(channel: ChannelRecord | undefined): boolean {
    return channel !== undefined && !channel.private;
  }

  /**
   * A post by id: 404 when unknown; for the organization key (`viewer` the app), 403 when it is
   * in a private channel the integration was not added to. People see every channel.
   */
  postOr404(postId: string, viewer: AuthorRecord['type'] = 'app'): PostRecord {
    const post = this.posts.get(postId);
    if (!post) throw notFound(`Post not found: ${postId}`);
    if (viewer === 'app' && !this.visibleChannel(this.channels.get(post.channel_id))) throw forbidden();
    return post;
  }

  threadOr404(threadId: string): ThreadRecord {
    const thread = this.threads.get(threadId);
    if (!thread) throw notFound(`Thread not found: ${threadId}`);
    return thread;
  }

  /** Active members, as mentions in written markdown may name them. */
  mentionables(): Mentionable[] {
    const out: Mentionable[] = [];
    for (const member of this.members.values()) {
      if (!member.is_deactivated) out.push({ id: member.id, name: member.user.display_name });
    }
    return out;
  }

  /** Written markdown → the HTML the service stores. */
  toHtml(markdown: string): string {
    return convertContent(markdown, { members: this.mentionables(), down: this.converterDown });
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

  /** A blank thread title is computed from member names: "A", "A and B", "A and 3 others". */
  threadTitle(thread: ThreadRecord): string {
    if (thread.title.trim() !== '') return thread.title;
    const names = thread.member_ids
      .map((id) => this.members.get(id)?.user.display_name)
      .filter((name): name is string => name !== undefined);
    const [first, second] = names;
    if (first === undefined) return '';
    if (second === undefined) return first;
    if (names.length === 2) return `${first} and ${second}`;
    return `${first} and ${names.length - 1} others`;
  }

  // ---- writes of spec §4 (status codes as SERVICE-FACTS.md lists them) ----

  createPost(author: AuthorRecord, body: CreatePostBody, at: Date = this.now()): PostRecord {
    const channelId = body.channel_id?.trim() ?? '';
    if (channelId === '') throw unprocessable("Channel can't be blank");
    const channel = this.channels.get(channelId);
    if (!channel || channel.archived) throw notFound(`Unknown channel: ${channelId}`);
    if (author.type === 'app' && !this.visibleChannel(channel)) throw forbidden();
    const markdown = body.content_markdown ?? '';
    const sentTitle = body.title?.trim() ?? '';
    if (sentTitle === '' && markdown.trim() === '') throw unprocessable('Add a title or content');
    const stamp = at.toISOString();
    const options = { members: this.mentionables(), down: this.converterDown };
    const post: PostRecord = {
      id: this.#ids.next('pst'),
      title: sentTitle === '' ? deriveTitle(markdown, options) : (body.title ?? ''),
      content_markdown: markdown,
      content_html: convertContent(markdown, options),
      created_at: stamp,
      last_activity_at: stamp,
      channel_id: channel.id,
      author,
      resolution: null,
    };
    this.posts.set(post.id, post);
    return post;
  }

  /** Unknown parent → 404; a reply to a reply → 422 (replies nest one level). */
  createComment(
    author: AuthorRecord,
    postId: string,
    body: CreateCommentBody,
    at: Date = this.now(),
  ): CommentRecord {
    const post = this.postOr404(postId, author.type);
    if (body.parent_id !== undefined) {
      const parent = this.comments.get(body.parent_id);
      if (!parent || parent.post_id !== post.id) throw notFound(`Unknown parent_id: ${body.parent_id}`);
      if (parent.parent_id !== null) throw unprocessable('Replies cannot be replied to');
    }
    const stamp = at.toISOString();
    const comment: CommentRecord = {
      id: this.#ids.next('cmt'),
      post_id: post.id,
      parent_id: body.parent_id ?? null,
      content_markdown: body.content_markdown,
      content_html: this.toHtml(body.content_markdown),
      created_at: stamp,
      author,
    };
    this.comments.set(comment.id, comment);
    post.last_activity_at = stamp;
    return comment;
  }

  /**
   * No state guard: resolving a resolved post replaces its resolution (a new `resolved_at`).
   * `last_activity_at` does not move. `comment_id` must be a comment of this post, else 404.
   */
  resolvePost(
    author: AuthorRecord,
    postId: string,
    body: ResolvePostBody,
    at: Date = this.now(),
  ): PostRecord {
    const post = this.postOr404(postId, author.type);
    if (body.comment_id !== undefined) {
      const comment = this.comments.get(body.comment_id);
      if (!comment || comment.post_id !== post.id) throw notFound(`Unknown comment_id: ${body.comment_id}`);
    }
    const message = body.content_markdown?.trim() ? body.content_markdown : '';
    post.resolution = {
      resolved_at: at.toISOString(),
      resolved_html: message === '' ? '' : this.toHtml(message),
      resolved_by: author,
      resolved_comment_id: body.comment_id ?? null,
    };
    return post;
  }

  /** No state guard: unresolving an unresolved post answers it as it is. `last_activity_at` does not move. */
  unresolvePost(postId: string, viewer: AuthorRecord['type'] = 'app'): PostRecord {
    const post = this.postOr404(postId, viewer);
    post.resolution = null;
    return post;
  }

  /**
   * Ids that are not active members are dropped silently (duplicates too), even when none is
   * left: the calling integration is a member anyway. A title over 80 characters → 422.
   */
  createThread(
    creator: AuthorRecord,
    body: CreateThreadBody,
    at: Date = this.now(),
    creatorMemberId?: string,
  ): ThreadRecord {
    const title = body.title ?? '';
    if (title.length > THREAD_TITLE_MAX) {
      throw unprocessable(`Title is too long (maximum is ${THREAD_TITLE_MAX} characters)`);
    }
    // A person creating a thread is in it.
    const asked = creatorMemberId === undefined ? body.member_ids : [creatorMemberId, ...body.member_ids];
    const memberIds = [...new Set(asked)].filter((id) => {
      const member = this.members.get(id);
      return member !== undefined && !member.is_deactivated;
    });
    const stamp = at.toISOString();
    const thread: ThreadRecord = {
      id: this.#ids.next('thr'),
      title,
      created_at: stamp,
      updated_at: stamp,
      last_message_at: null,
      creator,
      member_ids: memberIds,
    };
    this.threads.set(thread.id, thread);
    return thread;
  }

  /** Unknown parent → 404. `author` null: a system message. */
  createMessage(
    author: AuthorRecord | null,
    threadId: string,
    body: CreateMessageBody,
    at: Date = this.now(),
  ): MessageRecord {
    const thread = this.threadOr404(threadId);
    if (body.parent_id !== undefined) {
      const parent = this.messages.get(body.parent_id);
      if (!parent || parent.thread_id !== thread.id) throw notFound(`Unknown parent_id: ${body.parent_id}`);
    }
    const stamp = at.toISOString();
    const message: MessageRecord = {
      id: this.#ids.next('msg'),
      thread_id: thread.id,
      parent_id: body.parent_id ?? null,
      content_markdown: body.content_markdown,
      content_html: this.toHtml(body.content_markdown),
      created_at: stamp,
      updated_at: stamp,
      author,
      deleted: false,
    };
    this.messages.set(message.id, message);
    thread.last_message_at = stamp;
    thread.updated_at = stamp;
    return message;
  }

  /** A message deleted in the service: still listed, with the placeholder content. */
  deleteMessage(messageId: string, at: Date = this.now()): MessageRecord {
    const message = this.messages.get(messageId);
    if (!message) throw notFound(`Unknown message: ${messageId}`);
    message.deleted = true;
    message.updated_at = at.toISOString();
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
