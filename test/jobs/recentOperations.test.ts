/**
 * A person's recent operations on App Home: the worker records each outcome, the entries are
 * written in batches (one script call per batch), and the list stays capped, newest first.
 * Outcomes come from real operations and from the store's own `record`; what was written is
 * read through App Home (the Slack stand-in's `views.publish`), the store's `list`, and a Redis
 * MONITOR of the harness's own keys.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECENT_BATCH_MAX, RECENT_CAP, type RecentOperation } from '../../src/store/recent.ts';
import { connectRedis, whenReady } from '../../src/store/redis.ts';
import { ADA, GRACE, type Harness, REDIS_URL, startHarness, TEAM } from '../support/harness.ts';
import { openHome, originOf, postWithCard, run, unique } from './helpers.ts';

const entry = (operation: string, outcome: RecentOperation['outcome'] = 'completed'): RecentOperation => ({
  operation,
  outcome,
  at: new Date().toISOString(),
});

describe('recent operations', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.close());

  /**
   * How many script calls wrote to the harness's recent lists while `act` ran: a MONITOR sees
   * every command; a marker sent after `act` tells when all of its commands have been seen.
   */
  async function scriptCallsDuring(act: () => Promise<void>): Promise<number> {
    const client = connectRedis(REDIS_URL, 'producer');
    await whenReady(client, 10_000);
    const monitor = await client.monitor();
    const marker = `recent-marker-${randomBytes(6).toString('hex')}`;
    let calls = 0;
    const seenMarker = new Promise<void>((resolve) => {
      monitor.on('monitor', (_time: string, args: string[]) => {
        const command = String(args[0]).toLowerCase();
        if (args.includes(marker)) resolve();
        else if (
          (command === 'evalsha' || command === 'eval') &&
          args.some((arg) => arg.startsWith(`${h.prefix}:`) && arg.includes(':recent:'))
        ) {
          calls += 1;
        }
      });
    });
    try {
      await act();
      await client.echo(marker);
      await seenMarker;
      return calls;
    } finally {
      monitor.disconnect();
      client.disconnect();
    }
  }

  it('App Home shows a completed and a failed operation, newest first, the failed one with its reason', async () => {
    const title = unique('Recent');
    const created = await run(h, 'createPost', {
      origin: originOf(h),
      channel: { name: 'engineering' },
      title,
      content: title,
    });
    expect(created.state).toBe('completed');
    const failed = await run(h, 'resolvePost', { origin: originOf(h), post: { id: 'pst_missing' } });
    expect(failed.state).toBe('failed');

    const lines = (await openHome(h, ADA, 'Your recent operations')).text
      .split('\n')
      .filter((line) => line.startsWith('• '));
    const failedAt = lines.findIndex((line) =>
      /:warning: .*could not resolve the post: No post with id `pst_missing`/.test(line),
    );
    const createdAt = lines.findIndex((line) => /:white_check_mark: .*create the post/.test(line));
    expect(failedAt).toBeGreaterThanOrEqual(0);
    expect(createdAt).toBeGreaterThan(failedAt);
  });

  it('App Home names what each operation acted on: its post, linked (a failure after the post was read too), or its people', async () => {
    // Grace's, not Ada's: App Home opened again within seconds is not built again.
    const origin = originOf(h, { userId: GRACE });
    const { post, title, url } = await postWithCard(h, unique('Named'), origin);
    expect((await run(h, 'resolvePost', { origin, post: { id: post.id } })).state).toBe('completed');
    expect(
      (await run(h, 'createComment', { origin, post: { id: post.id }, text: 'Looks right' })).state,
    ).toBe('completed');
    const hello = unique('Hello');
    expect((await run(h, 'sendDm', { origin, slackUserIds: [ADA], text: hello })).state).toBe('completed');
    const threadId = [...h.emulator.org().messages.values()].find((m) =>
      m.content_markdown.includes(hello),
    )!.thread_id;
    expect((await run(h, 'sendDm', { origin, threadId, text: 'And again' })).state).toBe('completed');
    // The post is read before the comment is sent; the service then refuses the comment.
    h.emulator.faults.add({ route: 'POST /v2/posts/{post_id}/comments', status: 422, times: 1 });
    expect((await run(h, 'createComment', { origin, post: { id: post.id }, text: 'Refused' })).state).toBe(
      'failed',
    );

    const lines = (await openHome(h, GRACE, 'could not add the comment')).text
      .split('\n')
      .filter((line) => line.startsWith('• '));
    const named = `*<${url}|${title}>*`;
    expect(lines).toEqual([
      expect.stringContaining(`: could not add the comment to ${named}: `),
      expect.stringContaining(`: send the message to *thread ${threadId}*`),
      expect.stringContaining(': send the message to *Ada Lovelace*'),
      expect.stringContaining(`: add the comment to ${named}`),
      expect.stringContaining(`: resolve the post ${named}`),
      expect.stringContaining(`: create the post ${named}`),
    ]);
    expect(lines.map((line) => line.split(' ')[1])).toEqual([
      ':warning:',
      ':white_check_mark:',
      ':white_check_mark:',
      ':white_check_mark:',
      ':white_check_mark:',
      ':white_check_mark:',
    ]);
  });

  it('writes outcomes recorded together with one script call, and lists them before it is written', async () => {
    const [ann, bob] = ['U_RECENT_ANN', 'U_RECENT_BOB'];
    const listed: RecentOperation[][] = [];
    const calls = await scriptCallsDuring(async () => {
      const recorded = [
        h.bot.store.recent.record(TEAM, ann, entry('ann-1')),
        h.bot.store.recent.record(TEAM, bob, entry('bob-1', 'failed')),
        h.bot.store.recent.record(TEAM, ann, entry('ann-2')),
        h.bot.store.recent.record(TEAM, ann, entry('ann-3')),
        h.bot.store.recent.record(TEAM, bob, entry('bob-2')),
      ];
      // Read at once: what waits for its batch is written first.
      listed.push(await h.bot.store.recent.list(TEAM, ann), await h.bot.store.recent.list(TEAM, bob));
      await Promise.all(recorded);
    });
    expect(calls).toBe(1);
    expect(listed.map((entries) => entries.map((e) => e.operation))).toEqual([
      ['ann-3', 'ann-2', 'ann-1'],
      ['bob-2', 'bob-1'],
    ]);
    expect(listed[1]?.[1]?.outcome).toBe('failed');
  });

  it(`keeps the newest ${RECENT_CAP}, written in batches of at most ${RECENT_BATCH_MAX}`, async () => {
    const cy = 'U_RECENT_CY';
    const count = RECENT_BATCH_MAX + 5;
    const calls = await scriptCallsDuring(async () => {
      await Promise.all(
        Array.from({ length: count }, (_, i) => h.bot.store.recent.record(TEAM, cy, entry(`cy-${i}`))),
      );
    });
    // The first RECENT_BATCH_MAX at once, the rest when their wait ends.
    expect(calls).toBe(2);
    const kept = await h.bot.store.recent.list(TEAM, cy, count);
    expect(kept.map((e) => e.operation)).toEqual(
      Array.from({ length: RECENT_CAP }, (_, i) => `cy-${count - 1 - i}`),
    );
  });
});
