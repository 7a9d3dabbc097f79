/**
 * What only a cluster can show: a workspace's keys share one slot (and a batch of writes to
 * several workspaces is split by slot), the queue's shards spread over the masters, and everything that looks at "the queue" (readiness, metrics, the jobs CLI,
 * schedules) sees every shard; the persistence check reads every master.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJobsCli } from '../../src/cli/jobs.ts';
import { shardNames, shardOf } from '../../src/operations/shards.ts';
import { readDurability } from '../../src/store/durability.ts';
import { keys } from '../../src/store/keys.ts';
import { type Cluster, isCluster, keySlot, masters } from '../../src/store/redis.ts';
import { type Harness, SLACK_CHANNEL, startHarness, TEAM } from '../support/harness.ts';
import { REDIS_ENV } from '../support/redisTarget.ts';

/** Teams whose operations land on different shards (of 6). */
const TEAMS = Array.from({ length: 24 }, (_, i) => `T_SPREAD_${i}`);

describe('on a Redis Cluster', () => {
  let h: Harness;
  beforeAll(async () => {
    // The web role alone: what is enqueued stays waiting, to be counted.
    h = await startHarness({ worker: false, env: { QUEUE_SHARDS: '6' } });
  });
  afterAll(() => h?.close());

  const cluster = () => h.bot.store.redis as Cluster;

  it('keeps every key of a workspace in one slot, and spreads the shards evenly over the masters', async () => {
    expect(isCluster(h.bot.store.redis)).toBe(true);
    await h.bot.store.links.set(TEAM, SLACK_CHANNEL, {
      channelId: 'ch-1',
      channelName: 'engineering',
      bridgeReplies: false,
      linkedBy: 'U_ADA',
      linkedAt: new Date(0).toISOString(),
    });
    await h.bot.store.recent.record(TEAM, 'U_ADA', {
      operation: 'createPost',
      outcome: 'completed',
      at: new Date(0).toISOString(),
    });
    const found: string[] = [];
    for (const node of masters(cluster())) {
      let cursor = '0';
      do {
        const [next, page] = await node.scan(cursor, 'MATCH', `${h.prefix}:t:*`, 'COUNT', 500);
        cursor = next;
        found.push(...page);
      } while (cursor !== '0');
    }
    expect(found.length).toBeGreaterThanOrEqual(3);
    expect(new Set(found.map(keySlot)).size).toBe(1);

    const names = shardNames({ shards: 6, cluster: true });
    expect(h.bot.queue.queues.map((q) => q.name)).toEqual(names);
    const owners = names.map((name) => cluster().slots[keySlot(name)]?.[0]);
    const perMaster = new Map<string, number>();
    for (const owner of owners) perMaster.set(owner!, (perMaster.get(owner!) ?? 0) + 1);
    expect([...perMaster.values()]).toEqual([2, 2, 2]);
  });

  it('writes the recent operations of workspaces in different slots in one batch, one call per slot', async () => {
    const teams = TEAMS.slice(0, 4);
    const slots = teams.map((team) => keySlot(keys(h.bot.store.space, team).recent('U_ADA')));
    expect(new Set(slots).size).toBe(teams.length);
    await Promise.all(
      teams.map((team, i) =>
        h.bot.store.recent.record(team, 'U_ADA', {
          operation: `op-${i}`,
          outcome: 'completed',
          at: new Date(0).toISOString(),
        }),
      ),
    );
    const listed = await Promise.all(teams.map((team) => h.bot.store.recent.list(team, 'U_ADA')));
    expect(listed.map((entries) => entries.map((e) => e.operation))).toEqual(
      teams.map((_, i) => [`op-${i}`]),
    );
  });

  it('readiness, metrics and the jobs CLI count the jobs of every shard', async () => {
    const ids: string[] = [];
    for (const teamId of TEAMS) {
      const queued = await h.bot.queue.enqueue(
        'pollFeed',
        { teamId, slackChannel: 'C_SPREAD' },
        { idempotencyKey: `spread-${randomBytes(4).toString('hex')}` },
      );
      ids.push(queued.jobId);
    }
    const used = new Set(TEAMS.map((teamId) => shardOf(teamId, 6)));
    expect(used.size).toBeGreaterThan(3);

    const ready = (await (await fetch(`${h.baseUrl}/readyz`)).json()) as { waiting: number };
    expect(ready.waiting).toBe(TEAMS.length);
    const metrics = await (await fetch(`${h.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(new RegExp(`collab_slack_queue_jobs\\{state="waiting"\\} ${TEAMS.length}\\b`));

    // The CLI finds a job on whichever shard holds it (waiting, so it is left alone).
    const err: string[] = [];
    const env = { ...REDIS_ENV, QUEUE_PREFIX: h.prefix, QUEUE_SHARDS: '6' };
    for (const id of [ids[0]!, ids.at(-1)!]) {
      expect(
        await runJobsCli(
          ['retry', id],
          env,
          () => {},
          (t) => err.push(t),
        ),
      ).toBe(1);
    }
    expect(err.join('')).toMatch(/is not failed; left alone[\s\S]*is not failed; left alone/);
  });

  it("keeps a workspace's schedules on its shard, and finds and removes them from any", async () => {
    const [a, b] = [TEAMS[0]!, TEAMS.find((t) => shardOf(t, 6) !== shardOf(TEAMS[0]!, 6))!];
    // Polls live in the poll schedule (store/pollSchedule.ts); timed work is a job scheduler.
    const pattern = '0 8 * * *';
    for (const teamId of [a, b]) {
      await h.bot.schedules.upsert(`${teamId}-notify-U1`, { pattern, tz: 'UTC' }, 'flushNotifications', {
        teamId,
        userId: 'U1',
      });
      expect(await h.bot.queue.queueFor(teamId).getJobScheduler(`${teamId}-notify-U1`)).toBeDefined();
    }
    expect((await h.bot.schedules.list('T_SPREAD_')).map((s) => s.id).sort()).toEqual(
      [`${a}-notify-U1`, `${b}-notify-U1`].sort(),
    );
    expect((await h.bot.schedules.get(`${b}-notify-U1`))?.pattern).toBe(pattern);
    expect(await h.bot.schedules.removeByPrefix('T_SPREAD_')).toBe(2);
    expect(await h.bot.schedules.list('T_SPREAD_')).toEqual([]);
  });

  it('reads the persistence settings of every master, and names the one that would lose work', async () => {
    const redis = cluster();
    expect((await readDurability(redis)).problems).toEqual([]);
    const [node] = masters(redis);
    await node!.config('SET', 'maxmemory-policy', 'allkeys-lru');
    try {
      const read = await readDurability(redis);
      expect(read.problems).toHaveLength(1);
      expect(read.problems[0]).toContain(`${node!.options.host}:${node!.options.port}`);
      expect(read.problems[0]).toContain('maxmemory-policy');
    } finally {
      await node!.config('SET', 'maxmemory-policy', 'noeviction');
    }
  });
});
