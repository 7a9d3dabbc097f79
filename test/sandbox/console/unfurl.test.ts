/**
 * The console does what Slack does around a message and a person: a message with a link of the
 * app's unfurl domain sends `link_shared` to the bot, whose `chat.unfurl` the page draws under
 * the message; each person carries the time zone users.info gives them; Slack's emoji are served
 * to the page; the composer's global shortcut "New post" opens the post form. The sandbox runs
 * in-process (stand-in, emulator, bot, real Redis under a private prefix); the page's API is used
 * as the page uses it.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/run.ts';
import { connectRedis, deleteKeys, whenReady } from '../../../src/store/redis.ts';

// biome-ignore lint/suspicious/noExplicitAny: the page API's JSON, read loosely as the page reads it
type Json = Record<string, any>;

describe('console: unfurls, time zones, emoji and the global shortcut', () => {
  let sandbox: Sandbox;
  const prefix = `sandbox-test-${randomBytes(5).toString('hex')}`;

  beforeAll(async () => {
    sandbox = await startSandbox({
      env: { PATH: process.env.PATH, REDIS_URL: process.env.REDIS_URL, LOG_LEVEL: 'silent' },
      plan: { slack: 'local', collab: 'emulator' },
      port: 0,
      prefix,
    });
  }, 30_000);

  afterAll(async () => {
    await sandbox?.stop();
    const redis = connectRedis(sandbox?.redisUrl ?? 'redis://127.0.0.1:6379', 'producer');
    await whenReady(redis).catch(() => {});
    await deleteKeys(redis, `${prefix}:*`);
    redis.disconnect();
  });

  const api = async (path: string, body: Json) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Json;
  };
  const state = async (user: string) =>
    (await (await fetch(`${sandbox.url}/api/state?user=${user}`)).json()) as Json;

  it('a message with a post link sends link_shared; the unfurl is drawn under the message', async () => {
    const slack = sandbox.slack!;
    const card = slack.waitFor(
      (c) => c.method === 'chat.postMessage' && JSON.stringify(c.args).includes('Unfurl me'),
    );
    await api('/api/send', {
      user: 'U0ADA',
      channel: 'C0GENERAL',
      text: '/collab post #general Unfurl me | body',
    });
    const posted = await card;
    const posts = ((await (await fetch(`${sandbox.emulator!.url}/_emulator/state`)).json()) as Json)
      .posts as Json[];
    const post = posts.find((p) => p.title === 'Unfurl me');
    // The service's own post url, as its answer gave it (the card's Open button carries it).
    const url = JSON.stringify(posted.args).match(/https?:\/\/127\.0\.0\.1:\d+\/[^"\s|>]+/)?.[0] ?? '';
    expect(url.startsWith(sandbox.emulator!.url)).toBe(true);
    expect(url).toContain(String(post?.id));

    const unfurled = slack.waitFor((c) => c.method === 'chat.unfurl');
    expect(
      (await api('/api/send', { user: 'U0GRACE', channel: 'C0GENERAL', text: `look at ${url} please` })).ok,
    ).toBe(true);
    const call = await unfurled;
    expect(Object.keys(call.args.unfurls as Json)).toEqual([url]);

    const shown = (await state('U0ADA')).messages.find((m: Json) => String(m.text).includes('look at'));
    expect(Object.keys(shown.unfurls ?? {})).toEqual([url]);
    expect(JSON.stringify(shown.unfurls)).toContain('Unfurl me');
  });

  it('each person has the time zone users.info gives them', async () => {
    const users = (await state('U0ADA')).users as Json[];
    expect(users.map((u) => [u.id, u.tz])).toEqual([
      ['U0ADA', 'Europe/Paris'],
      ['U0GRACE', 'America/New_York'],
    ]);
  });

  it('serves Slack’s emoji shortcodes to the page', async () => {
    const emoji = (await (await fetch(`${sandbox.url}/emoji.json`)).json()) as Record<string, string>;
    expect(emoji.large_green_circle).toBe('🟢');
    expect(emoji.satellite_antenna).toBe('📡');
    expect(emoji.new).toBe('🆕');
  });

  it('the composer’s “New post” global shortcut opens the post form', async () => {
    const shortcuts = (await state('U0GRACE')).globalShortcuts as Json[];
    expect(shortcuts).toEqual([{ callback_id: 'new_post', name: 'New post' }]);
    const opened = sandbox.slack!.waitFor((c) => c.method === 'views.open' && c.response.ok === true);
    expect((await api('/api/global-shortcut', { user: 'U0GRACE', callback_id: 'new_post' })).ok).toBe(true);
    await opened;
    const modal = (await state('U0GRACE')).modal as Json;
    expect(modal.view.callback_id).toBe('post_create');
    expect((modal.view.blocks as Json[]).map((b) => b.block_id)).toEqual(['title', 'content', 'channel']);
  });
});
