/**
 * The request budget in the running bot: when the polls of every workspace ask for more than the
 * background lane gives, a poll tick that is not its turn sends nothing; App Home and /metrics
 * show the interval in effect; a person's operation still goes through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appHomeOpened } from '../../src/sandbox/slack/index.ts';
import { createBudget } from '../../src/store/budget.ts';
import { connectRedis, type Redis, whenReady } from '../../src/store/redis.ts';
import { ADA, type Harness, REDIS_URL, SLACK_CHANNEL, startHarness, TEAM } from '../support/harness.ts';
import { blockText, linkToEngineering, originOf, run } from './helpers.ts';

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

  it('skips poll ticks beyond the budget, and App Home and /metrics show the stretched interval', async () => {
    await linkToEngineering(h, SLACK_CHANNEL);
    const firstTick = h.nextSettled('pollFeed');
    expect((await run(h, 'followChannel', { origin: originOf(h) })).state).toBe('completed');
    expect((await firstTick).state).toBe('completed');

    // Another process's pollers (other workspaces) ask for 200 polls a window; 20 are allowed.
    const host = new URL(h.emulator.url).host;
    const elsewhere = createBudget(
      other,
      { prefix: h.prefix },
      {
        limit: 40,
        windowMs: 30_000,
        personReserve: 20,
        pauseMs: 5000,
      },
    );
    for (let i = 0; i < 200; i++) await elsewhere.pollTurn(host, `pollFeed:T_OTHER${i % 20}-feed-C${i}`);
    expect((await elsewhere.status(host)).stretch).toBeGreaterThan(5);

    const before = h.emulator.received.filter((r) => r.route === 'GET /v2/posts').length;
    expect((await run(h, 'pollFeed', { teamId: TEAM, slackChannel: SLACK_CHANNEL })).state).toBe('completed');
    expect(h.emulator.received.filter((r) => r.route === 'GET /v2/posts')).toHaveLength(before);

    // A person's operation is not held back by the polls.
    expect((await run(h, 'listChannels', { origin: originOf(h) })).state).toBe('completed');

    await h.event({ ...appHomeOpened({ user: ADA }) });
    const publish = await h.slackCall(
      (c) =>
        c.method === 'views.publish' &&
        c.args.user_id === ADA &&
        blockText((c.args.view as { blocks: unknown }).blocks).includes('Followed channels are checked'),
    );
    expect(blockText((publish.args.view as { blocks: unknown }).blocks)).toMatch(
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
