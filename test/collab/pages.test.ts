/** The page walk: follows next_cursor lazily and never loops, over real HTTP. */
import { describe, expect, it } from 'vitest';
import { walkPages } from '../../src/collab/pages.ts';
import type { Page } from '../../src/collab/schemas.ts';
import { clientsPerTest, failure } from './helpers.ts';
import { json } from './server.ts';

const KEY = 'sk_pages_key';
const { setup } = clientsPerTest(KEY);

async function collect<T extends { id: string }>(iterable: AsyncIterable<T>): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of iterable) ids.push(item.id);
  return ids;
}

const channels = (...ids: string[]) => ids.map((id) => ({ id, name: `#${id}` }));

describe('page walk over HTTP', () => {
  it('follows next_cursor until it is null, with the same options on every page', async () => {
    const pages: Record<string, Page<{ id: string; name: string }>> = {
      '': { data: channels('a', 'b'), next_cursor: 'c2' },
      c2: { data: channels('c', 'd'), next_cursor: 'c3' },
      c3: { data: channels('e'), next_cursor: null },
    };
    const { server, client } = await setup((_req, res, r) => json(res, 200, pages[r.query.after ?? '']));
    expect(await collect(client.allChannels({ name: 'x', limit: 2, sort: 'name' }))).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
    expect(server.received.map((r) => r.query)).toEqual([
      { name: 'x', limit: '2', sort: 'name' },
      { name: 'x', limit: '2', sort: 'name', after: 'c2' },
      { name: 'x', limit: '2', sort: 'name', after: 'c3' },
    ]);
  });

  it('ends on a missing or empty cursor', async () => {
    const { client } = await setup((_req, res, r) =>
      json(res, 200, r.path === '/v2/members' ? { data: [] } : { data: channels('a'), next_cursor: '' }),
    );
    expect(await collect(client.allMembers())).toEqual([]);
    expect(await collect(client.allChannels())).toEqual(['a']);
  });

  it('stops when a service answers an unknown cursor with page 1 (no duplicates, no loop)', async () => {
    const { server, client } = await setup((_req, res, r) => {
      // Knows only the cursor 'p2'; anything else gets the first page again.
      if (r.query.after === 'p2') json(res, 200, { data: [{ id: 'm3' }, { id: 'm4' }], next_cursor: 'p3' });
      else json(res, 200, { data: [{ id: 'm1' }, { id: 'm2' }], next_cursor: 'p2' });
    });
    expect(await collect(client.allMessages('t1'))).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(server.received).toHaveLength(3);
    expect(server.received[0]?.path).toBe('/v2/threads/t1/messages');
  });

  it('stops when a cursor repeats', async () => {
    const { server, client } = await setup((_req, res, r) => {
      const after = r.query.after;
      if (after === undefined) json(res, 200, { data: [{ id: '1' }], next_cursor: 'A' });
      else if (after === 'A') json(res, 200, { data: [{ id: '2' }], next_cursor: 'B' });
      else json(res, 200, { data: [{ id: '3' }], next_cursor: 'A' });
    });
    expect(await collect(client.allPosts())).toEqual(['1', '2', '3']);
    expect(server.received).toHaveLength(3);
  });

  it('starts from `after` when given and ignores `before`', async () => {
    const { server, client } = await setup((_req, res) => json(res, 200, { data: [{ id: 'x' }] }));
    const query = { after: 'start', before: 'ignored' } as { after: string };
    expect(await collect(client.allPosts(query))).toEqual(['x']);
    expect(server.received[0]?.query).toEqual({ after: 'start' });
  });

  it('is lazy: the next page is fetched only when the consumer gets there', async () => {
    const { server, client } = await setup((_req, res, r) => {
      const n = Number(r.query.after ?? '0');
      json(res, 200, { data: [{ id: `a${n}` }, { id: `b${n}` }], next_cursor: String(n + 1) });
    });
    const iterator = client.allPosts()[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ id: 'a0' });
    expect((await iterator.next()).value).toMatchObject({ id: 'b0' });
    expect(server.received).toHaveLength(1);
    expect((await iterator.next()).value).toMatchObject({ id: 'a1' });
    expect(server.received).toHaveLength(2);
    await iterator.return?.();
  });

  it('a failing page ends the walk with the CollabError of that page', async () => {
    const { client } = await setup((_req, res, r) =>
      r.query.after
        ? json(res, 503, { message: 'busy' })
        : json(res, 200, { data: [{ id: '1' }], next_cursor: 'n' }),
    );
    const seen: string[] = [];
    const walk = async () => {
      for await (const post of client.allPosts()) seen.push(post.id);
    };
    expect(await failure(walk())).toMatchObject({ kind: 'retryable', operation: 'allPosts', detail: 'busy' });
    expect(seen).toEqual(['1']);
  });
});

describe('walkPages', () => {
  it('stops on a repeated empty page with fresh cursors', async () => {
    let calls = 0;
    const fetchPage = async (): Promise<Page<{ id: string }>> => {
      calls++;
      return { data: [], next_cursor: `c${calls}` };
    };
    const ids: string[] = [];
    for await (const item of walkPages(fetchPage)) ids.push(item.id);
    expect(ids).toEqual([]);
    expect(calls).toBe(2);
  });

  it('tells pages apart by all their ids, not by their size', async () => {
    const pages: Record<string, Page<{ id: string }>> = {
      '': { data: [{ id: 'ab' }, { id: 'c' }], next_cursor: '2' },
      '2': { data: [{ id: 'a' }, { id: 'bc' }], next_cursor: null },
    };
    const ids: string[] = [];
    for await (const item of walkPages(async (cursor) => pages[cursor ?? ''] ?? { data: [] }))
      ids.push(item.id);
    expect(ids).toEqual(['ab', 'c', 'a', 'bc']);
  });
});
