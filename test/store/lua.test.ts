/**
 * The Redis scripts as .lua files: each is read with its includes taken in once, and every one
 * of them (store/lua/, engine/lua/) compiles on the real Redis — a script broken in its file
 * fails here, not on the first request that runs it.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineScript } from '../../src/engine/lua.ts';
import { luaScript, storeScript } from '../../src/store/lua.ts';
import { connectRedis, type Redis, whenReady } from '../../src/store/redis.ts';
import { REDIS_URL } from '../support/harness.ts';

const root = new URL('../../src/', import.meta.url);
const scripts = (folder: string) =>
  readdirSync(new URL(folder, root))
    .filter((file) => file.endsWith('.lua'))
    .map((file) => file.slice(0, -'.lua'.length));

describe('the Redis scripts', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = connectRedis(REDIS_URL, 'producer');
    await whenReady(redis);
  });
  afterAll(() => redis.disconnect());

  it('take in each include once, in place of its line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lua-'));
    try {
      writeFileSync(join(dir, 'twice.lua'), '--- @include "fence"\n--- @include "fence"\nreturn 1\n');
      const text = luaScript(pathToFileURL(`${dir}/`), 'twice');
      expect(text.match(/local function fenced/g)).toHaveLength(1);
      expect(text).not.toContain('@include');
      expect(text.trimEnd().endsWith('return 1')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ...scripts('store/lua/').map((name) => ['store', name] as const),
    ...scripts('engine/lua/').map((name) => ['engine', name] as const),
  ])('%s/lua/%s.lua compiles on Redis', async (folder, name) => {
    const text = folder === 'store' ? storeScript(name) : engineScript(name);
    expect(text).not.toContain('@include');
    expect(await redis.script('LOAD', text)).toMatch(/^[0-9a-f]{40}$/);
  });
});
