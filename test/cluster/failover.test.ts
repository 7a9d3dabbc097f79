/**
 * A master killed mid-load. Operations of several workspaces flow through the sharded queues of
 * a cluster of the test's own (3 masters, 3 replicas, `cluster-node-timeout` 1 s); the master
 * of the busiest shard is killed with SIGKILL while jobs are in flight on it. Its replica takes
 * over, and every operation is done once and told once: nothing lost with the master (enqueues
 * and step marks waited for a replica, REDIS_CLUSTER_WAIT_REPLICAS), nothing done twice by the
 * runs that were interrupted.
 *
 * The person's side is the listener's: an enqueue that fails while the slots move is answered
 * "try again", and the person tries again (the same idempotency key) once the replica has taken
 * over — which the test learns from the replica itself ("Failover election won").
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Origin } from '../../src/operations/schemas.ts';
import { type Cluster, isCluster, keySlot } from '../../src/store/redis.ts';
import { appPostsWith, originOf, responseTexts, unique } from '../jobs/helpers.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { type LocalCluster, startLocalCluster } from './support/localCluster.ts';

const TEAMS = ['T_FAIL_A', 'T_FAIL_B', 'T_FAIL_C', 'T_FAIL_D', 'T_FAIL_E', 'T_FAIL_F'];
const BEFORE = 36;
const AFTER = 12;

describe('a Redis Cluster master killed mid-load', () => {
  let cluster: LocalCluster;
  let h: Harness;
  beforeAll(async () => {
    cluster = await startLocalCluster({ nodeTimeoutMs: 1000 });
    h = await startHarness({
      env: {
        REDIS_URL: cluster.url,
        REDIS_CLUSTER_NODES: cluster.seeds,
        QUEUE_SHARDS: '6',
        // A run whose lock went with the master is handed over within seconds, not a minute.
        JOB_LOCK_MS: '4000',
        JOB_ATTEMPTS: '6',
      },
    });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await cluster?.stop();
  });

  it('the replica takes over: no operation lost or doubled, every person told once', async () => {
    const redis = h.bot.store.redis;
    expect(isCluster(redis)).toBe(true);
    // Sends take a while, so that runs are mid-send when the master dies.
    h.emulator.faults.setLatency(150, 'POST /v2/posts');

    type Op = { origin: Origin & { responseId: string }; text: string; key: string };
    const ops: Op[] = [];
    const newOp = (i: number): Op => ({
      // Half of them from the first workspace: its shard (the one whose master dies) is busiest.
      origin: originOf(h, { teamId: i % 2 === 0 ? TEAMS[0]! : TEAMS[i % TEAMS.length]! }),
      text: unique(`failover ${i}`),
      key: `failover-${randomBytes(6).toString('hex')}`,
    });
    const enqueue = (op: Op) =>
      h.bot.queue.enqueue(
        'createPost',
        { origin: op.origin, channel: { name: 'engineering' }, content: op.text },
        { idempotencyKey: op.key },
      );
    const told = (op: Op) =>
      h.slack.waitFor(
        (call) =>
          call.path === `/response/${op.origin.responseId}` &&
          /Posted to|:warning:/.test(String(call.args.text)),
        { timeoutMs: 60_000 },
      );

    for (let i = 0; i < BEFORE; i++) ops.push(newOp(i));
    for (const op of ops) expect((await enqueue(op)).status).toBe('queued');
    const outcomes = ops.map(told);

    // The master of the busiest shard: the shard of the first workspace.
    const shard = h.bot.queue.queueFor(TEAMS[0]!);
    const [masterAddress] = (redis as Cluster).slots[keySlot(shard.name)] ?? [];
    const master = cluster.nodes.find((node) => node.address === masterAddress);
    expect(master).toBeDefined();
    const others = cluster.nodes.filter((node) => node !== master);
    const promoted = Promise.any(others.map((node) => node.output(/Failover election won/, 30_000)));

    // Mid-load: a few outcomes are in, the rest queued or in flight — on the doomed shard too.
    await Promise.all(outcomes.slice(0, 3));
    const pending = await shard.getJobCounts('active', 'waiting');
    expect((pending.active ?? 0) + (pending.waiting ?? 0)).toBeGreaterThan(0);
    await master!.kill();

    // People keep asking while the slots move; an ask refused now is asked again after.
    const during: Op[] = [];
    const refused: Op[] = [];
    for (let i = BEFORE; i < BEFORE + AFTER; i++) {
      const op = newOp(i);
      during.push(op);
      await enqueue(op).catch(() => refused.push(op));
    }
    await promoted;
    // The bot's connection learns the new slot map (it reads it again every second).
    const slot = keySlot(shard.name);
    while ((redis as Cluster).slots[slot]?.[0] === masterAddress) await once(redis, 'refresh');
    for (const op of refused) expect(['queued', 'duplicate']).toContain((await enqueue(op)).status);
    ops.push(...during);
    outcomes.push(...during.map(told));
    await Promise.all(outcomes);

    for (const op of ops) {
      expect(appPostsWith(h, op.text), op.text).toHaveLength(1);
      const texts = responseTexts(h, op.origin);
      expect(
        texts.filter((t) => t.includes('Posted to')),
        op.text,
      ).toHaveLength(1);
      expect(
        texts.filter((t) => t.includes(':warning:')),
        op.text,
      ).toEqual([]);
    }
  }, 120_000);
});
