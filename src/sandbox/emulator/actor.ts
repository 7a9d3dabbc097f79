/**
 * "Act as a person": the spec has no events and the bot polls, so tests and the sandbox console
 * make people do things through these helpers. Each validates its input with the same body
 * schemas as the HTTP routes and calls the same state methods; only the author differs (a person,
 * type `member`). Answers are the wire shapes the HTTP API would return. Errors are `HttpError`s.
 */
import {
  CreateCommentBody,
  CreateMessageBody,
  CreatePostBody,
  type CreateThreadBody,
  parseBody,
  parseThreadBody,
  ResolvePostBody,
} from './bodies.ts';
import { HttpError } from './http-error.ts';
import { type PresentOrg, presentComment, presentMessage, presentPost, presentThread } from './present.ts';
import type {
  AuthorRecord,
  CommentRecord,
  MemberRecord,
  MessageRecord,
  PostRecord,
  ThreadRecord,
  WireComment,
  WireMessage,
  WirePost,
  WireThread,
} from './records.ts';

/** The writes an actor makes (ActorOrg has them; state.ts is not imported, so no cycle). */
export interface ActorOrg extends PresentOrg {
  now(): Date;
  authorOf(member: MemberRecord): AuthorRecord;
  threadOr404(threadId: string): ThreadRecord;
  createPost(author: AuthorRecord, body: CreatePostBody): PostRecord;
  createComment(author: AuthorRecord, postId: string, body: CreateCommentBody): CommentRecord;
  resolvePost(author: AuthorRecord, postId: string, body: ResolvePostBody): PostRecord;
  unresolvePost(postId: string, viewer: AuthorRecord['type']): PostRecord;
  createThread(
    creator: AuthorRecord,
    body: CreateThreadBody,
    at: Date,
    creatorMemberId: string,
  ): ThreadRecord;
  createMessage(author: AuthorRecord, threadId: string, body: CreateMessageBody): MessageRecord;
}

export class Actor {
  readonly member: MemberRecord;
  readonly author: AuthorRecord;
  readonly #org: ActorOrg;

  constructor(org: ActorOrg, member: MemberRecord) {
    this.#org = org;
    this.member = member;
    this.author = org.authorOf(member);
  }

  createPost(input: CreatePostBody): WirePost {
    const post = this.#org.createPost(this.author, parseBody(CreatePostBody, input));
    return presentPost(this.#org, post);
  }

  createComment(postId: string, input: CreateCommentBody): WireComment {
    const comment = this.#org.createComment(this.author, postId, parseBody(CreateCommentBody, input));
    return presentComment(this.#org, comment);
  }

  resolvePost(postId: string, input: ResolvePostBody = {}): WirePost {
    const post = this.#org.resolvePost(this.author, postId, parseBody(ResolvePostBody, input));
    return presentPost(this.#org, post);
  }

  unresolvePost(postId: string): WirePost {
    return presentPost(this.#org, this.#org.unresolvePost(postId, 'member'));
  }

  /** The person is a member of the thread; ids that are not active members are dropped. */
  createThread(input: CreateThreadBody): WireThread {
    const body = parseThreadBody(input);
    return presentThread(
      this.#org,
      this.#org.createThread(this.author, body, this.#org.now(), this.member.id),
    );
  }

  /** A person may only write in a thread they are a member of. */
  createMessage(threadId: string, input: CreateMessageBody): WireMessage {
    const thread = this.#org.threadOr404(threadId);
    if (!thread.member_ids.includes(this.member.id)) {
      throw new HttpError(403, `Member ${this.member.id} is not in thread ${threadId}`);
    }
    const message = this.#org.createMessage(this.author, threadId, parseBody(CreateMessageBody, input));
    return presentMessage(message);
  }
}
