import { describe, expect, it } from 'vitest';
import type { Post } from '../../src/collab/schemas.ts';
import { changeNote, changeNoteText, postChanges } from '../../src/render/changes.ts';
import { allTexts, assertMessageWithinLimits } from '../support/blockKit.ts';

const open = { resolved: false, resolvedAt: null, comments: 2 };
const post = (over: Partial<Post> = {}): Post => ({
  id: 'pst_1',
  comments_count: 2,
  resolution: null,
  ...over,
});
const resolution = (name: string, at = '2024-05-01T10:00:00.000Z') => ({
  resolved_at: at,
  resolved_by: { id: 'mbr_1', name, type: 'user' },
});

describe('postChanges', () => {
  it('sees a resolution appear, with who resolved it', () => {
    expect(postChanges(open, post({ resolution: resolution('Ada Lovelace') }))).toEqual([
      { kind: 'resolved', by: 'Ada Lovelace' },
    ]);
  });

  it('sees a resolution disappear, and one replaced by another', () => {
    const shown = { resolved: true, resolvedAt: '2024-05-01T10:00:00.000Z', comments: 2 };
    expect(postChanges(shown, post())).toEqual([{ kind: 'reopened' }]);
    expect(postChanges(shown, post({ resolution: resolution('Grace', '2024-05-02T10:00:00.000Z') }))).toEqual(
      [{ kind: 'resolved', by: 'Grace', again: true }],
    );
    expect(postChanges(shown, post({ resolution: resolution('Grace') }))).toEqual([]);
  });

  it('counts new comments only when both counts are known and it grew', () => {
    expect(postChanges(open, post({ comments_count: 5 }))).toEqual([{ kind: 'comments', added: 3 }]);
    expect(postChanges(open, post({ comments_count: 1 }))).toEqual([]);
    expect(postChanges({ ...open, comments: null }, post({ comments_count: 5 }))).toEqual([]);
    expect(postChanges(open, post({ comments_count: null }))).toEqual([]);
  });
});

describe('changeNote', () => {
  it('says what changed in short words', () => {
    expect(changeNoteText([{ kind: 'resolved', by: 'Ada' }])).toBe('Resolved by *Ada*');
    expect(changeNoteText([{ kind: 'reopened' }])).toBe('Reopened');
    expect(changeNoteText([{ kind: 'comments', added: 1 }])).toBe('1 new comment');
    expect(changeNoteText([{ kind: 'resolved' }, { kind: 'comments', added: 2 }])).toBe(
      'Resolved  ·  2 new comments',
    );
    expect(changeNoteText([{ kind: 'resolved', by: 'Ada', again: true }])).toBe('Resolved again by *Ada*');
  });

  it('escapes names so nothing pings anyone, and fits Block Kit', () => {
    const note = changeNote([{ kind: 'resolved', by: '<!channel> *Eve* & co' }]);
    expect(note.text).toBe('Resolved by *&lt;!channel&gt; *Eve* &amp; co*');
    expect(allTexts(note.blocks)).toEqual([note.text]);
    assertMessageWithinLimits(note);
  });
});
