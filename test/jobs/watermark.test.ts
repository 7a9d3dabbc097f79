import { describe, expect, it } from 'vitest';
import { advance, EMPTY_WATERMARK, isAfter, newerThan, newerThanPaged } from '../../src/jobs/watermark.ts';

const T1 = '2024-05-01T10:00:00.000Z';
const T2 = '2024-05-01T10:00:01.000Z';

describe('watermarks', () => {
  it('keep the newest instant and every id seen at it', () => {
    const mark = advance(EMPTY_WATERMARK, [
      { id: 'a', at: T1 },
      { id: 'b', at: T2 },
      { id: 'c', at: T2 },
      { id: 'd', at: null },
    ]);
    expect(mark).toEqual({ at: T2, ids: ['b', 'c'] });
    expect(advance(mark, [{ id: 'e', at: T1 }])).toEqual(mark);
  });

  it('take an item sharing the instant but not seen, never one seen or older', () => {
    const mark = { at: T2, ids: ['b'] };
    expect(isAfter({ id: 'c', at: T2 }, mark)).toBe(true);
    expect(isAfter({ id: 'b', at: T2 }, mark)).toBe(false);
    expect(isAfter({ id: 'a', at: T1 }, mark)).toBe(false);
    expect(isAfter({ id: 'x', at: undefined }, mark)).toBe(false);
    expect(isAfter({ id: 'x', at: undefined }, EMPTY_WATERMARK)).toBe(true);
  });

  it('stop a newest-first list at the watermark', () => {
    const items = [
      { id: 'n', at: '2024-05-01T10:00:05.000Z' },
      { id: 'c', at: T2 },
      { id: 'b', at: T2 },
      { id: 'a', at: T1 },
    ];
    const { fresh, reached } = newerThan(items, { at: T2, ids: ['b'] }, (i) => i);
    expect(fresh.map((i) => i.id)).toEqual(['n', 'c']);
    expect(reached).toBe(true);
    expect(newerThan(items, EMPTY_WATERMARK, (i) => i).reached).toBe(false);
  });

  describe('across pages', () => {
    const T0 = '2024-05-01T09:59:59.000Z';
    const pages: Record<string, { data: Array<{ id: string; at: string }>; next_cursor?: string }> = {
      first: { data: [{ id: 'c', at: T2 }], next_cursor: 'p2' },
      p2: { data: [{ id: 'b', at: T1 }], next_cursor: 'p3' },
      p3: { data: [{ id: 'a', at: T0 }] },
    };
    const read = async (after: string | undefined) => pages[after ?? 'first'] ?? { data: [] };

    it('walk older pages until the watermark is reached', async () => {
      const mark = { at: T0, ids: ['a'] };
      const { fresh, complete } = await newerThanPaged(read, mark, (i) => i, 5);
      expect(fresh.map((i) => i.id)).toEqual(['c', 'b']);
      expect(complete).toBe(true);
    });

    it('stop at the page cap and say the walk was cut short', async () => {
      const { fresh, complete } = await newerThanPaged(read, EMPTY_WATERMARK, (i) => i, 2);
      expect(fresh.map((i) => i.id)).toEqual(['c', 'b']);
      expect(complete).toBe(false);
    });
  });
});
