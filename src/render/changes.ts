/**
 * The short note posted in a card's thread when its post changed in the service (a channel
 * feed noticed it): "Resolved by *Ada*", "Reopened", "2 new comments". Pure.
 */
import type { KnownBlock } from '@slack/types';
import type { Post } from '../collab/schemas.ts';
import { resolverPlain } from './attribution.ts';
import { LIMITS, md } from './limits.ts';
import { escapeMrkdwn, oneLine } from './text.ts';

export type PostChange =
  /** a resolution appeared (`again`: a new one replaced an earlier one) */
  | { kind: 'resolved'; by?: string | undefined; again?: boolean }
  | { kind: 'reopened' }
  | { kind: 'comments'; added: number };

/** What a post's cards last showed, as far as change notes care. */
export interface ShownState {
  resolved: boolean;
  resolvedAt: string | null;
  comments: number | null;
}

/** The changes between what the cards showed and the post now; empty when nothing visible changed. */
export function postChanges(before: ShownState, post: Post): PostChange[] {
  const changes: PostChange[] = [];
  const resolution = post.resolution ?? undefined;
  const resolver = resolution ? resolverPlain(post) : undefined;
  const by = resolver ? oneLine(resolver) : undefined;
  if (resolution && !before.resolved) changes.push({ kind: 'resolved', by });
  else if (!resolution && before.resolved) changes.push({ kind: 'reopened' });
  else if (resolution && (resolution.resolved_at ?? null) !== before.resolvedAt) {
    changes.push({ kind: 'resolved', by, again: true });
  }
  const now = post.comments_count;
  if (typeof now === 'number' && typeof before.comments === 'number' && now > before.comments) {
    changes.push({ kind: 'comments', added: now - before.comments });
  }
  return changes;
}

function phrase(change: PostChange): string {
  switch (change.kind) {
    case 'resolved': {
      const verb = change.again ? 'Resolved again' : 'Resolved';
      return change.by ? `${verb} by *${escapeMrkdwn(change.by)}*` : verb;
    }
    case 'reopened':
      return 'Reopened';
    case 'comments':
      return `${change.added} new comment${change.added === 1 ? '' : 's'}`;
  }
}

/** The note's mrkdwn: the changes joined, e.g. "Resolved by *Ada*  ·  2 new comments". */
export function changeNoteText(changes: readonly PostChange[]): string {
  return changes.map(phrase).join('  ·  ');
}

/** The thread reply under a card: the changes, in a context block. */
export function changeNote(changes: readonly PostChange[]): { text: string; blocks: KnownBlock[] } {
  const text = changeNoteText(changes);
  return {
    text,
    blocks: [{ type: 'context', elements: [md(text, LIMITS.contextText)] }],
  };
}
