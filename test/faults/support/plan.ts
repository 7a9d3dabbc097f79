/**
 * The fault suite's operations and how they are reconciled with the emulator's state.
 *
 * Each operation carries a unique token (`FT00042X`) in its text and in its response_url, so
 * what the service holds and what the person was told can both be traced back to it.
 */
import type { OrgState } from '../../../src/sandbox/emulator/index.ts';
import type { RecordedCall } from '../../../src/sandbox/slack/index.ts';

export type OpKind = 'createPost' | 'createComment' | 'sendDm' | 'resolvePost' | 'unresolvePost';

export interface Op {
  index: number;
  kind: OpKind;
  token: string;
  /** the slash command text after `/collab` */
  text: string;
  /** resolve / unresolve / comment: the post it targets (comments share posts) */
  postId?: string;
  /** Slack delivers this command a second time (same trigger_id), this many ms later */
  redeliverAfterMs?: number;
}

export interface AckRecord {
  status: number | undefined;
  /** the ack's text (Bolt's JSON body), or the transport error */
  text: string;
  ms: number;
}

export type Verdict =
  | 'applied' // applied once, told success (or told it went through though what followed failed)
  | 'appliedUntold' // applied once, no final outcome heard
  | 'appliedToldFailed' // applied once, yet told it failed
  | 'appliedToldInDoubt' // applied once, told it may have gone through (the service never confirmed)
  | 'refusedAtAck' // "try again" at ack time, nothing applied
  | 'reportedFailed' // told it failed, nothing applied
  | 'duplicated' // applied more than once
  | 'lostToldSuccess' // not applied, yet told it was done
  | 'lost'; // not applied, and nobody told (lost silently)

/** A small seeded PRNG (mulberry32): the same seed gives the same plan and the same chaos. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const tokenOf = (index: number) => `FT${String(index).padStart(5, '0')}X`;
const TOKEN = /FT\d{5}X/g;

const MIX: [OpKind, number][] = [
  ['createPost', 0.3],
  ['createComment', 0.25],
  ['sendDm', 0.2],
  ['resolvePost', 0.15],
  ['unresolvePost', 0.1],
];

/** Channels the creates spread over (the recover of an ambiguous create looks at a channel's newest posts). */
const POST_CHANNELS = ['general', 'engineering', 'design', 'random', 'announcements', 'marketing'];
const THREADS = 8;
/** Posts the comments share (besides the posts being resolved). */
const SHARED_POSTS = 12;
/** Share of comments aimed at the post a resolve was just sent for (a resolve racing a comment). */
const RACING_COMMENTS = 0.3;
/** Share of commands Slack delivers twice. */
const REDELIVERED = 0.05;

/**
 * Builds `count` operations and the emulator state they need: a post of its own for every
 * resolve and unresolve; comments on a few shared posts, or on the post a resolve was just sent
 * for (so several operations land on one post at once); a few threads for the DMs (a thread
 * create cannot be deduplicated: the API cannot list threads). Some commands are delivered twice.
 */
export function planOperations(org: OrgState, count: number, random: () => number): Op[] {
  const byName = new Map([...org.channels.values()].map((c) => [c.name, c.id]));
  const support = byName.get('support')!;
  const product = byName.get('product')!;
  const members = [...org.members.values()].filter((m) => !m.is_deactivated);
  const author = org.authorOf(members[1]!);
  const threads = Array.from(
    { length: THREADS },
    (_, i) =>
      org.createThread(org.app, {
        member_ids: [members[0]!.id, members[(i % 3) + 1]!.id],
        title: `faults ${i}`,
      }).id,
  );
  const shared = Array.from(
    { length: SHARED_POSTS },
    (_, i) => org.createPost(author, { content_markdown: `shared ${i}`, channel_id: support }).id,
  );
  let lastResolved: string | undefined;
  const ops: Op[] = [];
  for (let index = 0; index < count; index++) {
    const token = tokenOf(index);
    let roll = random();
    let kind: OpKind = 'createPost';
    for (const [k, share] of MIX) {
      if (roll < share) {
        kind = k;
        break;
      }
      roll -= share;
    }
    switch (kind) {
      case 'createPost': {
        const channel = POST_CHANNELS[index % POST_CHANNELS.length]!;
        ops.push({ index, kind, token, text: `post #${channel} Fault ${token} | body of ${token}` });
        break;
      }
      case 'createComment': {
        const postId =
          lastResolved && random() < RACING_COMMENTS
            ? lastResolved
            : shared[Math.floor(random() * shared.length)]!;
        ops.push({ index, kind, token, postId, text: `reply ${postId} comment ${token}` });
        break;
      }
      case 'sendDm': {
        const thread = threads[index % threads.length]!;
        ops.push({ index, kind, token, text: `dm ${thread} message ${token}` });
        break;
      }
      case 'resolvePost': {
        const post = org.createPost(author, { content_markdown: `resolve target`, channel_id: product });
        ops.push({ index, kind, token, postId: post.id, text: `resolve ${post.id} resolved ${token}` });
        lastResolved = post.id;
        break;
      }
      case 'unresolvePost': {
        const post = org.createPost(author, { content_markdown: `reopen target`, channel_id: product });
        org.resolvePost(author, post.id, { content_markdown: 'resolved before the run' });
        ops.push({ index, kind, token, postId: post.id, text: `unresolve ${post.id}` });
        break;
      }
    }
    if (random() < REDELIVERED) ops.at(-1)!.redeliverAfterMs = Math.floor(random() * 3000);
  }
  return ops;
}

/** How many times each operation's effect is in the service. */
export function appliedCounts(org: OrgState, ops: Op[]): Map<number, number> {
  const counts = new Map<number, number>();
  const bump = (text: string | null | undefined) => {
    for (const match of (text ?? '').matchAll(TOKEN)) {
      const index = Number(match[0].slice(2, 7));
      counts.set(index, (counts.get(index) ?? 0) + 1);
    }
  };
  for (const post of org.posts.values()) bump(post.content_markdown);
  for (const comment of org.comments.values()) bump(comment.content_markdown);
  for (const message of org.messages.values()) bump(message.content_markdown);
  for (const op of ops) {
    if (op.kind === 'resolvePost') {
      const post = org.posts.get(op.postId!);
      counts.set(op.index, post?.resolution?.resolved_html?.includes(op.token) ? 1 : 0);
    } else if (op.kind === 'unresolvePost') {
      counts.set(op.index, org.posts.get(op.postId!)?.resolution === null ? 1 : 0);
    }
  }
  return counts;
}

export interface Told {
  text: string;
  replaceOriginal: boolean;
}

/** What was told through each operation's response_url, in order, by token. */
export function toldTexts(calls: RecordedCall[]): Map<string, Told[]> {
  const told = new Map<string, Told[]>();
  for (const call of calls) {
    const token = decodeURIComponent(call.path?.split('/').pop() ?? '');
    const text = typeof call.args.text === 'string' ? call.args.text : '';
    const replaceOriginal = call.args.replace_original === true;
    told.set(token, [...(told.get(token) ?? []), { text, replaceOriginal }]);
  }
  return told;
}

const RETRY_NOTICE = /^:hourglass_flowing_sand:/;

/**
 * The outcomes a person saw, in order: retry notices dropped, and a message that replaced the
 * previous one with the very same text counted once (Slack shows one message).
 */
export function finalsOf(told: Told[]): string[] {
  const seen: Told[] = [];
  for (const t of told) {
    const previous = seen.at(-1);
    if (previous && t.replaceOriginal && previous.text === t.text) continue;
    seen.push(t);
  }
  return seen.map((t) => t.text).filter((text) => !RETRY_NOTICE.test(text));
}

/** More than one outcome, or a retry notice after the outcome. */
export function toldMoreThanOnce(told: Told[]): boolean {
  if (finalsOf(told).length > 1) return true;
  const first = told.findIndex((t) => !RETRY_NOTICE.test(t.text));
  return first !== -1 && told.slice(first).some((t) => RETRY_NOTICE.test(t.text));
}

/** `acks`: every ack of the command (one per delivery). */
export function verdictOf(applied: number, acks: AckRecord[], told: Told[]): Verdict {
  const refused =
    acks.length > 0 && acks.every((ack) => ack.status === 200 && ack.text.startsWith(':warning:'));
  const final = finalsOf(told).at(-1);
  // A warning that the write went through (what came after it did not finish) is not a failure.
  const toldLanded = final?.includes('It went through') ?? false;
  const toldFailed = (final?.startsWith(':warning:') ?? false) && !toldLanded;
  const toldInDoubt = toldFailed && (final?.includes('may have gone through') ?? false);
  if (applied > 1) return 'duplicated';
  if (applied === 1) {
    if (final === undefined) return 'appliedUntold';
    if (toldInDoubt) return 'appliedToldInDoubt';
    return toldFailed ? 'appliedToldFailed' : 'applied';
  }
  if (final !== undefined && !toldFailed) return 'lostToldSuccess';
  if (toldFailed) return 'reportedFailed';
  if (refused) return 'refusedAtAck';
  return 'lost';
}
