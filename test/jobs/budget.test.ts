/**
 * The request budget in the running bot: when the polls of every workspace ask for more than the
 * background lane gives, every poller's interval stretches and no poll is enqueued that the lane
 * has no room for; App Home and /metrics show the interval in effect; a person's operation still
 * goes through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBudget } from '../../src/store/budget.ts';
import { createPollSchedule } from '../../src/store/pollSchedule.ts';
import { connectRedis, type Redis, whenReady } from '../../src/store/redis.ts';
import { ADA, type Harness, REDIS_URL, SLACK_CHANNEL, startHarness } from '../support/harness.ts';
import { linkToEngineering, openHome, originOf, run } from './helpers.ts';

const HOUR = 3_600_000;

describe('request budget in the bot', () => {
  let h: Harness;
  let other: Redis;
  beforeAll(async () => {
    h = await startHarness({
      env: {
        FEED_POLL_INTERVAL_MS: String(HOUR),
        COLLAB_RATE_LIMIT: '40',
        COLLAB_RATE_PERSON_RESERVE: '20',
      },
    });
    other = connectRedis(REDIS_URL, 'producer');
    await whenReady(other);
  });
  afterAll(async () => {
    other?.disconnect();
    await h?.close();
  });

  it('stretches polls beyond the budget and enqueues none the lane has no room for; App Home and /metrics show the interval', async () => {
    await linkToEngineering(h, SLACK_CHANNEL);
    const firstTick = h.nextSettled('pollFeed');
    expect((await run(h, 'followChannel', { origin: originOf(h) })).state).toBe('completed');
    expect((await firstTick).state).toBe('completed');

    // Other workspaces' pollers ask for 150 polls a window; the background lane gives 20, and
    // another process has just used them.
    const host = new URL(h.emulator.url).host;
    const settings = { limit: 40, windowMs: 30_000, personReserve: 20, pauseMs: 5000 };
    const elsewhere = createBudget(other, { prefix: h.prefix }, settings);
    const schedule = createPollSchedule(other, { prefix: h.prefix }, { capacity: 20, windowMs: 30_000 });
    // First the lane (what the bot itself sent so far counts too: taken until the lane says no),
    // so that no dispatcher takes the pollers below.
    let spent = 0;
    while (
      await elsewhere.take(host, 'listPosts', { lane: 'background', maxWaitMs: 0 }).then(
        () => true,
        () => false,
      )
    ) {
      spent++;
    }
    expect(spent).toBeLessThanOrEqual(20);
    for (let i = 0; i < 300; i++) {
      const teamId = `T_OTHER${i % 20}`;
      await schedule.set(
        host,
        `${teamId}-feed-C${i}`,
        { operation: 'pollFeed', data: { teamId, slackChannel: `C${i}` }, everyMs: 60_000 },
        Date.now(),
      );
    }
    const taken = await schedule.dispatch(host, Date.now(), 1000);
    expect(taken.polls).toEqual([]);
    expect(taken.stretch).toBeGreaterThan(5);
    expect((await elsewhere.status(host)).stretch).toBeGreaterThan(5);
    // The bot's own dispatcher enqueued none of them either: they are all still due.
    expect((await h.bot.queue.queue.getJobCounts('waiting', 'active')).waiting).toBe(0);
    expect(await schedule.get('T_OTHER0-feed-C0')).toMatchObject({ everyMs: 60_000 });

    // A person's operation is not held back by the polls.
    expect((await run(h, 'listChannels', { origin: originOf(h) })).state).toBe('completed');

    // A poll job's requests count in the background lane, which has no room: it is delayed, and
    // nothing was sent for it.
    const polled = () =>
      h.emulator.received.filter((r) => r.method === 'GET' && r.path === '/v2/posts').length;
    const before = polled();
    const queued = await h.bot.queue.enqueue(
      'pollFeed',
      { teamId: originOf(h).teamId, slackChannel: SLACK_CHANNEL },
      { idempotencyKey: `poll-${Date.now()}` },
    );
    const delayed = new Promise<'delayed'>((resolve) => {
      const onDelayed = ({ jobId }: { jobId: string }) => {
        if (jobId !== queued.jobId) return;
        h.queueEvents.off('delayed', onDelayed);
        resolve('delayed');
      };
      h.queueEvents.on('delayed', onDelayed);
    });
    expect(await Promise.race([delayed, h.settled(queued.jobId)])).toBe('delayed');
    expect(polled()).toBe(before);
    await (await h.bot.queue.queue.getJob(queued.jobId))?.remove();

    expect((await openHome(h, ADA, 'Followed channels are checked')).text).toMatch(
      /Followed channels are checked every [\d.]+ h \(instead of 60 min\): the service's rate limit is shared/,
    );

    const metrics = await (await fetch(`${h.baseUrl}/metrics`)).text();
    const line = metrics
      .split('\n')
      .find((l) => l.startsWith(`collab_slack_poll_effective_interval_seconds{host="${host}",kind="feed"}`));
    expect(Number(line?.split(' ').at(-1))).toBeGreaterThan((5 * HOUR) / 1000);
    expect(metrics).toContain(`collab_slack_budget_limit{host="${host}"} 40`);
  });
});
