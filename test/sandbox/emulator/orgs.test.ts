import { afterEach, describe, expect, it } from 'vitest';
import { Post, PostPage } from '../../../src/collab/schemas.ts';
import {
  type Emulator,
  SEED_ARCHIVED_CHANNEL,
  SEED_CHANNELS,
  SEED_PRIVATE_CHANNEL,
  startEmulator,
} from '../../../src/sandbox/emulator/index.ts';
import { channelIdByName, get, manualClock, post } from './helpers.ts';

const KEY_A = 'test-key-org-a';
const KEY_B = 'test-key-org-b';

describe('emulator organizations, seed and reset', () => {
  const running: Emulator[] = [];
  async function start(options: Parameters<typeof startEmulator>[0] = {}): Promise<Emulator> {
    const emu = await startEmulator(options);
    running.push(emu);
    return emu;
  }
  afterEach(async () => {
    await Promise.all(running.splice(0).map((emu) => emu.close()));
  });

  it('each API key is its own organization, isolated from the others', async () => {
    const emu = await start({ apiKeys: [KEY_A, KEY_B] });
    expect(emu.apiKey).toBe(KEY_A);
    expect(emu.org()).toBe(emu.org(KEY_A));
    const created = Post.parse(
      (
        await post(
          emu,
          '/v2/posts',
          { content_markdown: 'only A', channel_id: channelIdByName(emu, 'general', KEY_A) },
          { key: KEY_A },
        )
      ).json,
    );
    expect((await get(emu, `/v2/posts/${created.id}`, { key: KEY_B })).status).toBe(404);
    expect((await get(emu, `/v2/posts/${created.id}`, { key: KEY_A })).status).toBe(200);
    const listA = PostPage.parse((await get(emu, '/v2/posts', { key: KEY_A })).json);
    const listB = PostPage.parse((await get(emu, '/v2/posts', { key: KEY_B })).json);
    expect(listA.total_count).toBe((listB.total_count ?? 0) + 1);
    expect(emu.org(KEY_B).posts.has(created.id)).toBe(false);
    const idsA = new Set(emu.org(KEY_A).channels.keys());
    expect([...emu.org(KEY_B).channels.keys()].some((id) => idsA.has(id))).toBe(false);
    expect(() => emu.org('unknown-key')).toThrow();
  });

  it('generates one obviously fake key by default', async () => {
    const emu = await start();
    expect(emu.apiKey).toMatch(/^emu_local_key_[0-9a-f]{24}$/);
    expect(emu.apiKeys).toEqual([emu.apiKey]);
    expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('seeds a believable organization', async () => {
    const emu = await start();
    const org = emu.org();
    expect([...org.channels.values()].map((channel) => channel.name)).toEqual([
      ...SEED_CHANNELS,
      SEED_PRIVATE_CHANNEL,
      SEED_ARCHIVED_CHANNEL,
    ]);
    const members = [...org.members.values()];
    expect(new Set(members.map((member) => member.role))).toEqual(
      new Set(['admin', 'member', 'viewer', 'guest']),
    );
    expect(members.filter((member) => member.is_deactivated)).toHaveLength(1);
    expect(members.every((member) => /^[a-z]+@example\.com$/.test(member.user.email))).toBe(true);
    expect(org.posts.size).toBeGreaterThanOrEqual(12);
    // Every listed channel has posts, and so has the private one.
    expect(new Set([...org.posts.values()].map((record) => record.channel_id)).size).toBe(
      SEED_CHANNELS.length + 1,
    );
    expect([...org.posts.values()].every((record) => record.author.type === 'member')).toBe(true);
    expect(org.comments.size).toBeGreaterThan(3);
    expect(org.threads.size).toBe(1);
    expect(org.messages.size).toBeGreaterThanOrEqual(2);
  });

  it('seeds deterministically for a key and a clock, and not at all with seed: false', async () => {
    const clock = manualClock();
    const one = await start({ apiKeys: [KEY_A], now: clock.now });
    const two = await start({ apiKeys: [KEY_A], now: clock.now });
    const strip = (emu: Emulator) => JSON.stringify(emu.org().snapshot()).replaceAll(emu.url, 'URL');
    expect(strip(one)).toBe(strip(two));
    const empty = await start({ seed: false });
    expect(empty.org().posts.size).toBe(0);
    expect(empty.org().channels.size).toBe(0);
    const answer = await post(empty, '/v2/posts', { content_markdown: 'nowhere' });
    expect(answer.status).toBe(422);
  });

  it('reset() clears faults and received, and reseeds in place with the same ids', async () => {
    const emu = await start({ apiKeys: [KEY_A, KEY_B] });
    const org = emu.org();
    const seededIds = [...org.posts.keys()];
    await post(emu, '/v2/posts', { content_markdown: 'temporary' });
    emu.faults.add({ status: 500, times: Infinity });
    emu.faults.setLatency(10);
    emu.reset();
    expect(emu.received).toEqual([]);
    expect(emu.faults.list()).toEqual([]);
    expect(emu.faults.latencies()).toEqual({});
    expect(emu.org()).toBe(org);
    expect([...org.posts.keys()]).toEqual(seededIds);
    expect((await get(emu, '/v2/posts', { key: KEY_B })).status).toBe(200);
  });
});
