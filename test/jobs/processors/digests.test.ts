/**
 * Scheduled digests end to end: real Redis, real workers (two of them), the emulator and the
 * Slack stand-in. Slots are driven deterministically (a sendDigest job with an explicit slot, as
 * a scheduler tick would carry), plus one digest posted by a real BullMQ scheduler.
 */
import { randomBytes } from 'node:crypto';
import type { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReliableWorker } from '../../../src/engine/index.ts';
import { previousRun } from '../../../src/jobs/cron.ts';
import { digestSchedulerId } from '../../../src/jobs/digestSchedules.ts';
import { DIGEST_RECHECK_BATCH } from '../../../src/jobs/digestWatch.ts';
import { MAX_DIGESTS_PER_CHANNEL } from '../../../src/jobs/processors/addDigest.ts';
import { processors } from '../../../src/jobs/processors/index.ts';
import { productOperations } from '../../../src/jobs/product.ts';
import { createLogger } from '../../../src/logger.ts';
import type { RecordedCall } from '../../../src/sandbox/slack/index.ts';
import { keys } from '../../../src/store/keys.ts';
import { ADA, GRACE, type Harness, startHarness, TEAM } from '../../support/harness.ts';
import { connectTestRedis } from '../../support/redisTarget.ts';
import { blockText, callsOf, channelId, linkToEngineering, memberId } from '../helpers.ts';

const PARIS = 'Europe/Paris';
const DAILY = '0 9 * * *';
/** 09:00 in Paris on the first day of summer time: 07:00Z (the day before it was 08:00Z). */
const SLOT_AFTER_DST = Date.parse('2026-03-29T07:00:00Z');

function digestPosts(h: Harness, slackChannel: string): RecordedCall[] {
  return callsOf(h, 'chat.postMessage').filter(
    (c) => c.args.channel === slackChannel && /Digest of|Nothing changed/.test(String(c.args.text ?? '')),
  );
}

async function sendSlot(h: Harness, digestId: string, slot: number) {
  const queued = await h.bot.queue.enqueue(
    'sendDigest',
    { teamId: TEAM, digestId, slot },
    { idempotencyKey: `tick-${randomBytes(6).toString('hex')}` },
  );
  return queued.jobId;
}

/** A Slack channel of its own, linked to `engineering`, with one digest. */
async function channelWithDigest(h: Harness, pattern = DAILY) {
  const slackChannel = `C_DIG${randomBytes(3).toString('hex').toUpperCase()}`;
  await linkToEngineering(h, slackChannel);
  const digest = await h.bot.store.digests.create(TEAM, {
    slackChannel,
    pattern,
    label: 'every day at 09:00',
    tz: PARIS,
    createdBy: ADA,
    createdAt: new Date().toISOString(),
  });
  return { slackChannel, digest };
}

/** The text of one group of a digest message ("" when the group is absent). */
function sectionOf(blocks: unknown, heading: string): string {
  const sections = (blocks as Array<{ type: string; text?: { text?: string } }>).filter(
    (b) => b.type === 'section',
  );
  return sections.map((b) => b.text?.text ?? '').find((t) => t.includes(` ${heading} (`)) ?? '';
}

describe('digests', () => {
  let h: Harness;
  let second: Worker | undefined;
  const opened: Array<ReturnType<typeof connectTestRedis>> = [];
  const connect = () => {
    const redis = connectTestRedis('worker');
    opened.push(redis);
    return redis;
  };
  beforeAll(async () => {
    h = await startHarness();
    // 30 new posts in #engineering inside the window before the slot (posted 2026-03-28 12:00Z on).
    const org = h.emulator.org();
    const author = org.authorOf(org.members.get(memberId(h, 'ada@example.com'))!);
    for (let i = 0; i < 30; i++) {
      org.createPost(
        author,
        { content_markdown: `Body ${i}`, title: `Window post ${i}`, channel_id: channelId(h, 'engineering') },
        new Date(Date.parse('2026-03-28T12:00:00Z') + i * 60_000),
      );
    }
  });
  afterAll(async () => {
    await second?.close();
    for (const redis of opened) redis.disconnect();
    await h?.close();
  });

  it('posts a digest exactly once per slot with two workers, duplicate ticks and a restart mid-run', async () => {
    const { slackChannel, digest } = await channelWithDigest(h);
    const logger = createLogger({ level: 'silent' });
    // BullMQ's connection and the step log's, as the bot has them (runtime.ts): a stop closes the
    // worker, then disconnects BullMQ's; a run still in flight keeps writing its step log.
    let bullmq = connect();
    const start = () => {
      bullmq = connect();
      return createReliableWorker({
        connection: bullmq,
        stepsConnection: connect(),
        logger,
        settings: { prefix: h.prefix, queueName: h.queue.name, concurrency: 4, backoffMs: 50 },
        operations: productOperations({
          workspaces: h.bot.workspaces,
          store: h.bot.store,
          processors,
          schedules: h.bot.schedules,
          logger,
        }),
      });
    };
    second = start();
    await second.waitUntilReady();

    // Three ticks of one slot, taken by whichever of the two workers is free.
    const ids = await Promise.all([1, 2, 3].map(() => sendSlot(h, digest.id, SLOT_AFTER_DST)));
    expect(await Promise.all(ids.map((id) => h.settled(id)))).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
    const posted = digestPosts(h, slackChannel);
    expect(posted).toHaveLength(1);
    const text = blockText(posted[0]!.args.blocks);
    expect(text).toContain('Digest of #engineering');
    expect(text).toContain('New posts (30)');
    expect(text).toContain('…and 25 more');
    // The first window starts at the run before: 2026-03-28 09:00 Paris = 08:00Z.
    expect(text).toContain(`<!date^${Math.floor(previousRun(DAILY, PARIS, SLOT_AFTER_DST) / 1000)}^`);
    expect(await h.bot.store.digests.lastUntil(TEAM, digest.id)).toBe(SLOT_AFTER_DST);

    // Restart: the next slot starts on the second worker alone, which is closed mid-run (while it
    // reads the posts); the slot is then delivered again to a fresh worker.
    const nextSlot = SLOT_AFTER_DST + 24 * 3600_000;
    const org = h.emulator.org();
    const author = org.authorOf(org.members.get(memberId(h, 'grace@example.com'))!);
    org.createPost(
      author,
      {
        content_markdown: 'After the first digest',
        title: 'Next day post',
        channel_id: channelId(h, 'engineering'),
      },
      new Date(SLOT_AFTER_DST + 3600_000),
    );
    await h.worker!.pause();
    h.emulator.faults.setLatency(300, 'GET /v2/posts');
    const midRun = new Promise<void>((resolve) => {
      const onRequest = (r: { route: string }) => {
        if (r.route !== 'GET /v2/posts') return;
        h.emulator.events.off('request', onRequest);
        resolve();
      };
      h.emulator.events.on('request', onRequest);
    });
    const first = await sendSlot(h, digest.id, nextSlot);
    await midRun;
    // Stopped as the bot stops a worker, before the re-delivery is queued: closed, then its BullMQ
    // connection dropped. (A closed BullMQ worker whose loop was waiting for a job may still move
    // one to active on a connection left open, and leave it there until its lock runs out.)
    await second.close(true);
    bullmq.disconnect();
    second = start();
    h.worker!.resume();
    const redelivered = await sendSlot(h, digest.id, nextSlot);
    expect(await h.settled(redelivered)).toBe('completed');
    // The interrupted run still finishes its post (its claim is its own); nothing else is posted.
    await h.slackCall(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === slackChannel &&
        blockText(c.args.blocks).includes('Next day post'),
    );
    h.emulator.faults.setLatency(0, 'GET /v2/posts');
    const again = await sendSlot(h, digest.id, nextSlot + 1000);
    expect(await h.settled(again)).toBe('completed');
    const all = digestPosts(h, slackChannel);
    expect(all).toHaveLength(2);
    expect(blockText(all[1]!.args.blocks)).not.toContain('Window post');
    // The slot belongs to the interrupted job: the re-delivery found it taken.
    expect(
      await h.bot.store.redis.get(keys(h.bot.store.space, TEAM).digestSlot(digest.id, nextSlot)),
    ).toMatch(new RegExp(`^${first}@\\d+$`));
    expect(first).not.toBe(redelivered);
  });

  it('lists a post resolved in the service with no other activity, and a reopened one as unresolved', async () => {
    // Resolving and reopening do not move a post's last_activity_at: the walk by activity never
    // sees them; the digest re-reads by id the posts it has shown.
    const { slackChannel, digest } = await channelWithDigest(h);
    const org = h.emulator.org();
    const author = org.authorOf(org.members.get(memberId(h, 'ada@example.com'))!);
    const day = (d: number, hour = 7) => Date.parse(`2026-07-0${d}T0${hour}:00:00Z`);
    const make = (title: string) =>
      org.createPost(
        author,
        { content_markdown: `${title} body`, title, channel_id: channelId(h, 'engineering') },
        new Date(day(1, 3)),
      );
    const quiet = make('Quietly resolved');
    const flipped = make('Resolved then reopened');
    const later = make('Reopened after its digest');
    await h.bot.store.digests.setLastUntil(TEAM, digest.id, day(1, 0));
    expect(await h.settled(await sendSlot(h, digest.id, day(1)))).toBe('completed');
    expect(blockText(digestPosts(h, slackChannel)[0]!.args.blocks)).toContain('Quietly resolved');

    org.resolvePost(author, quiet.id, {}, new Date(day(1, 9)));
    org.resolvePost(author, flipped.id, {}, new Date(day(1, 9)));
    org.unresolvePost(flipped.id);
    org.resolvePost(author, later.id, {}, new Date(day(1, 9)));
    expect(await h.settled(await sendSlot(h, digest.id, day(2)))).toBe('completed');
    const second = digestPosts(h, slackChannel);
    expect(second).toHaveLength(2);
    const resolved = sectionOf(second[1]!.args.blocks, 'Resolved');
    expect(resolved).toContain('Quietly resolved');
    expect(resolved).toContain('Reopened after its digest');
    expect(resolved).not.toContain('Resolved then reopened');

    org.unresolvePost(later.id);
    expect(await h.settled(await sendSlot(h, digest.id, day(3)))).toBe('completed');
    const third = digestPosts(h, slackChannel);
    expect(third).toHaveLength(3);
    expect(sectionOf(third[2]!.args.blocks, 'Resolved')).toBe('');
    expect(sectionOf(third[2]!.args.blocks, 'Still unresolved')).toContain('Reopened after its digest');
    expect(sectionOf(third[2]!.args.blocks, 'Still unresolved')).not.toContain('Quietly resolved');
  });

  it('re-reads at most DIGEST_RECHECK_BATCH watched posts a run, least recently read first', async () => {
    const { slackChannel, digest } = await channelWithDigest(h);
    const org = h.emulator.org();
    const author = org.authorOf(org.members.get(memberId(h, 'grace@example.com'))!);
    const at = (iso: string) => Date.parse(iso);
    const ids = new Set<string>();
    for (let i = 0; i < DIGEST_RECHECK_BATCH + 10; i++) {
      const post = org.createPost(
        author,
        { content_markdown: `Watched ${i}`, title: `Watched ${i}`, channel_id: channelId(h, 'engineering') },
        new Date(at('2026-08-01T03:00:00Z') + i * 1000),
      );
      ids.add(post.id);
    }
    const reads = async (slot: number) => {
      const read: string[] = [];
      const onRequest = (r: { route: string; path: string }) => {
        const id = r.path.split('/').pop() ?? '';
        if (r.route === 'GET /v2/posts/{id}' && ids.has(id)) read.push(id);
      };
      h.emulator.events.on('request', onRequest);
      try {
        expect(await h.settled(await sendSlot(h, digest.id, slot))).toBe('completed');
      } finally {
        h.emulator.events.off('request', onRequest);
      }
      return read;
    };
    await h.bot.store.digests.setLastUntil(TEAM, digest.id, at('2026-08-01T00:00:00Z'));
    // The first digest lists them (its walk reads them: no read by id).
    expect(await reads(at('2026-08-01T07:00:00Z'))).toEqual([]);
    const second = await reads(at('2026-08-02T07:00:00Z'));
    expect(second).toHaveLength(DIGEST_RECHECK_BATCH);
    const third = await reads(at('2026-08-03T07:00:00Z'));
    expect(third).toHaveLength(DIGEST_RECHECK_BATCH);
    // Every watched post was read within two runs.
    expect(new Set([...second, ...third])).toEqual(ids);
    // Nothing changed after the first: nothing more was posted.
    expect(digestPosts(h, slackChannel)).toHaveLength(1);
  });

  it('posts nothing when nothing changed (DIGEST_QUIET_NOTE off)', async () => {
    const { slackChannel, digest } = await channelWithDigest(h);
    await h.bot.store.digests.setLastUntil(TEAM, digest.id, Date.parse('2026-06-01T07:00:00Z'));
    const id = await sendSlot(h, digest.id, Date.parse('2026-06-02T07:00:00Z'));
    expect(await h.settled(id)).toBe('completed');
    expect(digestPosts(h, slackChannel)).toHaveLength(0);
  });

  it('is posted by its BullMQ scheduler (a fast pattern) and removed with the link', async () => {
    const { slackChannel, digest } = await channelWithDigest(h, '* * * * * *');
    await h.bot.store.digests.setLastUntil(TEAM, digest.id, Date.now() - 3600_000);
    const org = h.emulator.org();
    const author = org.authorOf(org.members.get(memberId(h, 'ada@example.com'))!);
    org.createPost(author, {
      content_markdown: 'Scheduled',
      title: 'Seen by the scheduler',
      channel_id: channelId(h, 'engineering'),
    });
    await h.bot.schedules.upsert(
      digestSchedulerId(TEAM, digest.id),
      { pattern: digest.pattern, tz: PARIS },
      'sendDigest',
      {
        teamId: TEAM,
        digestId: digest.id,
      },
    );
    const call = await h.slackCall((c) => c.method === 'chat.postMessage' && c.args.channel === slackChannel);
    expect(blockText(call.args.blocks)).toContain('Seen by the scheduler');

    const settled = h.nextSettled('unlinkChannel');
    await h.command('unlink', { channel: slackChannel });
    expect((await settled).state).toBe('completed');
    expect(await h.bot.schedules.get(digestSchedulerId(TEAM, digest.id))).toBeUndefined();
    expect(await h.bot.store.digests.list(TEAM, slackChannel)).toEqual([]);
  });

  it('add, list, run and remove from the slash command; admins only', async () => {
    const slackChannel = 'C_CMDS';
    const added = h.nextSettled('addDigest');
    const ack = await h.command('digest add every weekday at 9:00', { channel: slackChannel });
    expect(ack.json<{ text: string }>().text).toContain('Scheduling the digest');
    expect((await added).state).toBe('completed');
    const [digest] = await h.bot.store.digests.list(TEAM, slackChannel);
    expect(digest).toMatchObject({ pattern: '0 9 * * 1-5', tz: PARIS, label: 'every weekday at 09:00' });
    const scheduler = await h.bot.schedules.get(digestSchedulerId(TEAM, digest!.id));
    expect(scheduler).toMatchObject({ pattern: '0 9 * * 1-5', tz: PARIS });
    expect(scheduler?.next).toBeGreaterThan(Date.now());
    const told = await h.slackCall(
      (c) =>
        c.method === 'response_url' && blockText(c.args.blocks).includes(`Digest ${digest!.id} scheduled`),
    );
    expect(blockText(told.args.blocks)).toContain('your Slack time zone');
    expect(blockText(told.args.blocks)).toContain(
      `Next digest: <!date^${Math.floor(scheduler!.next! / 1000)}^`,
    );

    const listed = h.nextSettled('listDigests');
    await h.command('digest list', { channel: slackChannel });
    expect((await listed).state).toBe('completed');
    const list = await h.slackCall(
      (c) => c.method === 'response_url' && blockText(c.args.blocks).includes('Digests of this channel'),
    );
    expect(blockText(list.args.blocks)).toContain(`\`${digest!.id}\` every weekday at 09:00 (Europe/Paris)`);
    expect(blockText(list.args.blocks)).toContain('not linked, so digests cover all channels');

    const ran = h.nextSettled('runDigest');
    await h.command('digest run', { channel: slackChannel });
    expect((await ran).state).toBe('completed');
    await h.slackCall(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === slackChannel &&
        String(c.args.text).startsWith('Digest of all channels'),
    );

    const refused = await h.command(`digest remove ${digest!.id}`, { channel: slackChannel, user: GRACE });
    expect(refused.json<{ text: string }>().text).toMatch(/Only workspace admins/);
    const badZone = await h.command('digest add daily at 9 in Mars/Olympus', { channel: slackChannel });
    expect(badZone.json<{ text: string }>().text).toMatch(/not a time zone/);

    const removed = h.nextSettled('removeDigest');
    await h.command(`digest remove ${digest!.id}`, { channel: slackChannel });
    expect((await removed).state).toBe('completed');
    expect(await h.bot.schedules.get(digestSchedulerId(TEAM, digest!.id))).toBeUndefined();
    expect(await h.bot.store.digests.list(TEAM, slackChannel)).toEqual([]);
  });

  it('refuses a digest past the most one channel can have, and says how to remove one', async () => {
    const slackChannel = 'C_FULL';
    for (let i = 0; i < MAX_DIGESTS_PER_CHANNEL; i++) {
      await h.bot.store.digests.create(TEAM, {
        slackChannel,
        pattern: DAILY,
        label: 'every day at 09:00',
        tz: PARIS,
        createdBy: ADA,
        createdAt: new Date().toISOString(),
      });
    }
    const added = h.nextSettled('addDigest');
    await h.command('digest add every weekday at 9:00', { channel: slackChannel });
    expect((await added).state).toBe('failed');
    const told = await h.slackCall(
      (c) => c.method === 'response_url' && String(c.args.text).includes('digests, the most'),
    );
    expect(told.args.text).toBe(
      `:warning: This channel already has ${MAX_DIGESTS_PER_CHANNEL} digests, the most one channel can have: remove one first (\`/collab digest list\` shows their ids, \`/collab digest remove <id>\` removes one).`,
    );
    expect(await h.bot.store.digests.list(TEAM, slackChannel)).toHaveLength(MAX_DIGESTS_PER_CHANNEL);
  });
});

describe('digests with DIGEST_QUIET_NOTE=true', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { DIGEST_QUIET_NOTE: 'true' } });
  });
  afterAll(() => h?.close());

  it('posts a one-line note when nothing changed, once per slot', async () => {
    const { slackChannel, digest } = await channelWithDigest(h);
    await h.bot.store.digests.setLastUntil(TEAM, digest.id, Date.parse('2026-06-01T07:00:00Z'));
    const slot = Date.parse('2026-06-02T07:00:00Z');
    for (const id of [await sendSlot(h, digest.id, slot), await sendSlot(h, digest.id, slot)]) {
      expect(await h.settled(id)).toBe('completed');
    }
    const posted = digestPosts(h, slackChannel);
    expect(posted).toHaveLength(1);
    expect(blockText(posted[0]!.args.blocks)).toMatch(/Nothing changed in #engineering since/);
  });
});
