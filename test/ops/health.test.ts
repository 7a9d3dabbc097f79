/** /healthz, /readyz and /metrics: on the web role's Bolt server, and on the worker-only role's own. */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { type RunningBot, startBot } from '../../src/runtime.ts';
import { connectRedis, deleteKeys, whenReady } from '../../src/store/redis.ts';
import { type Harness, REDIS_URL, startHarness } from '../support/harness.ts';

let h: Harness | undefined;
/** A bot started without the harness, and the key prefix it writes under. */
let bot: { running: RunningBot; prefix: string } | undefined;
afterEach(async () => {
  await h?.close();
  if (bot) {
    await bot.running.stop();
    const redis = connectRedis(REDIS_URL, 'producer');
    await whenReady(redis);
    await deleteKeys(redis, `${bot.prefix}:*`);
    redis.disconnect();
  }
  h = undefined;
  bot = undefined;
});

describe('operations endpoints', () => {
  it('answers /healthz and /readyz on the web role', async () => {
    h = await startHarness();
    const health = await fetch(`${h.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${h.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, redis: 'ok', waiting: 0 });
  });

  it('serves Prometheus metrics: acks by surface, jobs by outcome, API latency, queue depth', async () => {
    h = await startHarness();
    const settled = h.nextSettled('listChannels');
    await h.command('channels');
    expect((await settled).state).toBe('completed');
    const response = await fetch(`${h.baseUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toMatch(/collab_slack_acks_total\{surface="command"\} 1/);
    expect(text).toMatch(/collab_slack_jobs_total\{operation="listChannels",outcome="completed"\} 1/);
    expect(text).toMatch(
      /collab_slack_api_request_duration_seconds_count\{operation="listChannels",status="200"\} 1/,
    );
    expect(text).toMatch(/collab_slack_queue_jobs\{state="waiting"\} 0/);
    expect(text).toContain('collab_slack_api_errors_total');
  });

  it('counts API errors by status', async () => {
    h = await startHarness({ env: { JOB_ATTEMPTS: '1' } });
    h.emulator.faults.add({ route: 'GET /v2/channels', status: 401, times: 1 });
    const settled = h.nextSettled('listChannels');
    await h.command('channels');
    await settled;
    const text = await (await fetch(`${h.baseUrl}/metrics`)).text();
    expect(text).toMatch(
      /collab_slack_api_errors_total\{operation="listChannels",status="401",kind="permanent"\} 1/,
    );
  });

  it('reports a backed-up queue but stays ready: every instance shares the queue, and all leaving rotation would refuse Slack', async () => {
    h = await startHarness({ worker: false, env: { READY_MAX_WAITING: '2' } });
    await h.command('channels');
    let ready = await fetch(`${h.baseUrl}/readyz`);
    expect(await ready.json()).toMatchObject({ ready: true, waiting: 1, maxWaiting: 2, backlogged: false });
    await h.command('members');
    ready = await fetch(`${h.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, waiting: 2, maxWaiting: 2, backlogged: true });
    // and the next command is still acked and queued
    await h.command('channels');
    expect(await h.queue.getWaitingCount()).toBe(3);
  });

  it('serves the endpoints on PORT in the worker-only role', async () => {
    const prefix = `test-ops-${randomBytes(6).toString('hex')}`;
    const config = loadConfig({
      SLACK_SIGNING_SECRET: 'test-signing',
      SLACK_BOT_TOKEN: 'xoxb-test-worker',
      COLLAB_API_URL: 'http://127.0.0.1:1',
      COLLAB_API_KEY: 'test-key',
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      ROLE: 'worker',
      PORT: '0',
      LOG_LEVEL: 'silent',
    });
    const running = await startBot(config, createLogger({ level: 'silent' }));
    bot = { running, prefix };
    expect(running.app).toBeUndefined();
    const base = `http://127.0.0.1:${running.port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect(await (await fetch(`${base}/metrics`)).text()).toContain('collab_slack_queue_jobs');
    expect((await fetch(`${base}/slack/events`)).status).toBe(404);
  });
});
