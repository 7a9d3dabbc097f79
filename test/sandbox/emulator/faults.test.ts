import { once } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Post } from '../../../src/collab/schemas.ts';
import { type Emulator, startEmulator } from '../../../src/sandbox/emulator/index.ts';
import { call, channelIdByName, get, post } from './helpers.ts';

describe('emulator fault injection', () => {
  let emu: Emulator;
  let rolls: number[];

  beforeEach(async () => {
    rolls = [];
    emu = await startEmulator({ random: () => rolls.shift() ?? 0 });
  });
  afterEach(() => emu.close());

  const postCount = () => emu.org().posts.size;
  const hasPost = (content: string) =>
    [...emu.org().posts.values()].some((record) => record.content_markdown === content);

  it('status: answers the status with a JSON message, without applying the write', async () => {
    emu.faults.add({ route: 'POST /v2/posts', status: 500 });
    const before = postCount();
    const answer = await post(emu, '/v2/posts', {
      channel_id: channelIdByName(emu, 'general'),
      content_markdown: 'fails',
    });
    expect(answer.status).toBe(500);
    expect(answer.json).toEqual({ message: 'Internal server error' });
    expect(postCount()).toBe(before);
    expect(
      (
        await post(emu, '/v2/posts', {
          channel_id: channelIdByName(emu, 'general'),
          content_markdown: 'works',
        })
      ).status,
    ).toBe(201);
  });

  it('429 with and without Retry-After', async () => {
    emu.faults.add({ status: 429, retryAfter: '2' });
    emu.faults.add({ status: 429, retryAfter: 'Wed, 21 Oct 2037 07:28:00 GMT' });
    emu.faults.add({ status: 429 });
    const first = await get(emu, '/v2/members');
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('2');
    expect((await get(emu, '/v2/members')).headers.get('retry-after')).toBe('Wed, 21 Oct 2037 07:28:00 GMT');
    const third = await get(emu, '/v2/members');
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBeNull();
    expect(third.json).toEqual({ message: 'Rate limit exceeded' });
    expect((await get(emu, '/v2/members')).status).toBe(200);
  });

  it('status with a plain-text body', async () => {
    emu.faults.add({ status: 502, body: '<html>Bad gateway</html>', contentType: 'text/html' });
    emu.faults.add({ status: 503, body: 'upstream down' });
    const html = await get(emu, '/v2/channels');
    expect(html.status).toBe(502);
    expect(html.headers.get('content-type')).toBe('text/html');
    expect(html.text).toBe('<html>Bad gateway</html>');
    const text = await get(emu, '/v2/channels');
    expect(text.status).toBe(503);
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text.text).toBe('upstream down');
  });

  it('body without status: the write is applied, the answer body replaced', async () => {
    emu.faults.add({ route: 'POST /v2/posts', body: 'ok', contentType: 'text/plain' });
    const answer = await post(emu, '/v2/posts', {
      channel_id: channelIdByName(emu, 'general'),
      content_markdown: 'replaced answer',
    });
    expect(answer.status).toBe(201);
    expect(answer.text).toBe('ok');
    expect(hasPost('replaced answer')).toBe(true);
  });

  it('latency: the request completes late; a short client timeout aborts it', async () => {
    emu.faults.add({ route: 'GET /v2/channels', latencyMs: 200 });
    expect((await get(emu, '/v2/channels')).status).toBe(200);
    emu.faults.add({ route: 'GET /v2/channels', latencyMs: 200 });
    await expect(get(emu, '/v2/channels', { signal: AbortSignal.timeout(50) })).rejects.toThrow();
  });

  it('standing latency per route, removed by setLatency(0) and clear()', async () => {
    emu.faults.setLatency(200, 'GET /v2/members');
    await expect(get(emu, '/v2/members', { signal: AbortSignal.timeout(50) })).rejects.toThrow();
    expect((await get(emu, '/v2/channels', { signal: AbortSignal.timeout(1_000) })).status).toBe(200);
    emu.faults.setLatency(0, 'GET /v2/members');
    expect((await get(emu, '/v2/members', { signal: AbortSignal.timeout(1_000) })).status).toBe(200);
    emu.faults.setLatency(200);
    expect(emu.faults.latencies()).toEqual({ '*': 200 });
    emu.faults.clear();
    expect(emu.faults.latencies()).toEqual({});
  });

  it('drop beforeApply: the socket closes with no answer and nothing is written', async () => {
    emu.faults.add({ route: 'POST /v2/posts', drop: 'beforeApply' });
    const before = postCount();
    await expect(
      post(emu, '/v2/posts', { channel_id: channelIdByName(emu, 'general'), content_markdown: 'lost' }),
    ).rejects.toThrow();
    expect(postCount()).toBe(before);
    expect(hasPost('lost')).toBe(false);
    // Received exactly once: the client did not silently retry.
    expect(emu.received.filter((request) => request.route === 'POST /v2/posts')).toHaveLength(1);
  });

  it('drop afterApply: the socket closes with no answer but the write is applied', async () => {
    emu.faults.add({ route: 'POST /v2/posts', drop: 'afterApply' });
    const before = postCount();
    await expect(
      post(emu, '/v2/posts', { channel_id: channelIdByName(emu, 'general'), content_markdown: 'applied' }),
    ).rejects.toThrow();
    expect(postCount()).toBe(before + 1);
    expect(hasPost('applied')).toBe(true);
  });

  it('malformedJson: the real status with a broken JSON body, after applying', async () => {
    emu.faults.add({ route: 'POST /v2/posts', malformedJson: true });
    const answer = await post(emu, '/v2/posts', {
      channel_id: channelIdByName(emu, 'general'),
      content_markdown: 'broken answer',
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(() => JSON.parse(answer.text)).toThrow();
    expect(answer.text.startsWith('{"id":"')).toBe(true);
    expect(hasPost('broken answer')).toBe(true);
  });

  it('stallMs: the write is applied, then the answer is held (client times out)', async () => {
    emu.faults.add({ route: 'POST /v2/posts', stallMs: 10_000 });
    const handled = once(emu.events, 'handled');
    await expect(
      post(
        emu,
        '/v2/posts',
        { channel_id: channelIdByName(emu, 'general'), content_markdown: 'stalled' },
        { signal: AbortSignal.timeout(50) },
      ),
    ).rejects.toThrow();
    const [event] = await handled;
    expect(event.status).toBe(201);
    expect(hasPost('stalled')).toBe(true);
  });

  it('a short stall still answers normally', async () => {
    emu.faults.add({ stallMs: 20 });
    const answer = await post(emu, '/v2/posts', {
      channel_id: channelIdByName(emu, 'general'),
      content_markdown: 'slow',
    });
    expect(answer.status).toBe(201);
    expect(Post.parse(answer.json).content).toBe('<p>slow</p>');
  });

  it('times: a rule applies to that many matching requests; Infinity to all', async () => {
    emu.faults.add({ route: 'GET /v2/channels', status: 500, times: 2 });
    const statuses = [];
    for (let index = 0; index < 3; index += 1) statuses.push((await get(emu, '/v2/channels')).status);
    expect(statuses).toEqual([500, 500, 200]);
    emu.faults.add({ status: 503, times: Infinity });
    for (let index = 0; index < 3; index += 1) expect((await get(emu, '/v2/members')).status).toBe(503);
    expect(emu.faults.list()).toHaveLength(1);
    emu.faults.clear();
    expect((await get(emu, '/v2/members')).status).toBe(200);
  });

  it('matches routes by template and by concrete path; other routes are untouched', async () => {
    const [postId] = emu.org().posts.keys();
    emu.faults.add({ route: 'GET /v2/posts/{id}', status: 500 });
    emu.faults.add({ route: `POST /v2/posts/${postId}/comments`, status: 502 });
    expect((await get(emu, '/v2/posts')).status).toBe(200);
    expect((await get(emu, `/v2/posts/${postId}`)).status).toBe(500);
    expect((await post(emu, `/v2/posts/${postId}/comments`, { content_markdown: 'x' })).status).toBe(502);
    expect(emu.faults.list()).toEqual([]);
  });

  it('rules apply in insertion order, first match consumed', async () => {
    const first = emu.faults.add({ status: 500 });
    emu.faults.add({ status: 503 });
    expect(emu.faults.list().map((fault) => fault.id)[0]).toBe(first);
    expect((await get(emu, '/v2/channels')).status).toBe(500);
    expect((await get(emu, '/v2/channels')).status).toBe(503);
    expect((await get(emu, '/v2/channels')).status).toBe(200);
  });

  it('probability: a failed roll skips the rule without consuming it', async () => {
    emu.faults.add({ status: 500, probability: 0.5 });
    rolls = [0.7, 0.2];
    expect((await get(emu, '/v2/channels')).status).toBe(200);
    expect(emu.faults.list()[0]?.remaining).toBe(1);
    expect((await get(emu, '/v2/channels')).status).toBe(500);
    emu.faults.add({ status: 500, probability: 0, times: Infinity });
    rolls = [0, 0, 0];
    expect((await get(emu, '/v2/channels')).status).toBe(200);
  });

  it('remove(id) removes a rule; invalid rules are refused', async () => {
    const id = emu.faults.add({ status: 500 });
    expect(emu.faults.remove(id)).toBe(true);
    expect(emu.faults.remove(id)).toBe(false);
    expect((await get(emu, '/v2/channels')).status).toBe(200);
    expect(() => emu.faults.add({ probability: 2 })).toThrow();
    expect(() => emu.faults.add({ status: 42 })).toThrow();
    expect(() => emu.faults.add({ times: 0 })).toThrow();
  });

  it('faults come before auth and are recorded with events', async () => {
    const seen: string[] = [];
    emu.events.on('fault', (event) => seen.push(event.fault.id));
    const id = emu.faults.add({ status: 503 });
    expect((await call(emu, 'GET', '/v2/channels', { key: null })).status).toBe(503);
    expect(seen).toEqual([id]);
  });

  it('close() ends fast while latencies and stalls are pending', async () => {
    emu.faults.add({ latencyMs: 60_000 });
    const pending = get(emu, '/v2/channels');
    await once(emu.events, 'request');
    await emu.close();
    await expect(pending).rejects.toThrow();
  });
});
