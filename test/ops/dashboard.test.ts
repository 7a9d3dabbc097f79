/**
 * The jobs dashboard on the web role: off unless configured, refused without the right
 * credentials, served with them, and read-only unless JOBS_DASHBOARD_WRITE.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { credentialsCheck } from '../../src/ops/dashboard.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const USER = 'ops';
const PASSWORD = 'a-long-dashboard-password';
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const dashboardEnv = (write = false) => ({
  JOBS_DASHBOARD_USER: USER,
  JOBS_DASHBOARD_PASSWORD: PASSWORD,
  ...(write ? { JOBS_DASHBOARD_WRITE: 'true' } : {}),
});

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A job of an unknown operation: the worker fails it at once, for good. */
async function failedJob(harness: Harness): Promise<string> {
  const job = await harness.bot.queue.queue.add('noSuchOperation', {}, { attempts: 1 });
  expect(await harness.settled(job.id!)).toBe('failed');
  return job.id!;
}

describe('the jobs dashboard', () => {
  it('is off by default', async () => {
    h = await startHarness({ worker: false });
    const response = await fetch(`${h.baseUrl}/jobs`, { headers: { authorization: basic(USER, PASSWORD) } });
    expect(response.status).toBe(404);
  });

  it('refuses requests without credentials or with wrong ones, and serves the board with them', async () => {
    h = await startHarness({ worker: false, env: dashboardEnv() });
    const none = await fetch(`${h.baseUrl}/jobs`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    for (const [user, password] of [
      [USER, 'wrong-password-of-some-length'],
      ['someone', PASSWORD],
      [USER, `${PASSWORD}x`],
      [USER, ''],
    ] as const) {
      expect(
        (await fetch(`${h.baseUrl}/jobs`, { headers: { authorization: basic(user, password) } })).status,
      ).toBe(401);
    }
    expect((await fetch(`${h.baseUrl}/jobs/api/queues`)).status).toBe(401);

    const page = await fetch(`${h.baseUrl}/jobs`, { headers: { authorization: basic(USER, PASSWORD) } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<base href="/jobs/" />');
    const api = await fetch(`${h.baseUrl}/jobs/api/queues`, {
      headers: { authorization: basic(USER, PASSWORD) },
    });
    expect(api.status).toBe(200);
    const body = (await api.json()) as { queues: Array<{ name: string; readOnlyMode: boolean }> };
    expect(body.queues.map((q) => [q.name, q.readOnlyMode])).toEqual([['operations', true]]);
  });

  it('is read-only by default: a failed job cannot be retried from it', async () => {
    h = await startHarness({ env: dashboardEnv() });
    const id = await failedJob(h);
    const retry = await fetch(`${h.baseUrl}/jobs/api/queues/operations/${id}/retry`, {
      method: 'PUT',
      headers: { authorization: basic(USER, PASSWORD) },
    });
    expect(retry.status).toBe(405);
    expect(await (await h.bot.queue.queue.getJob(id))!.getState()).toBe('failed');
  });

  it('retries a failed job when JOBS_DASHBOARD_WRITE is on', async () => {
    h = await startHarness({ env: dashboardEnv(true) });
    const id = await failedJob(h);
    const again = new Promise<void>((resolve) =>
      h!.queueEvents.on('active', ({ jobId }) => jobId === id && resolve()),
    );
    const retry = await fetch(`${h.baseUrl}/jobs/api/queues/operations/${id}/retry`, {
      method: 'PUT',
      headers: { authorization: basic(USER, PASSWORD) },
    });
    expect(retry.status).toBe(204);
    await again;
  });

  it('needs both credentials, and a long password', () => {
    const base = {
      SLACK_SIGNING_SECRET: 's',
      SLACK_BOT_TOKEN: 'xoxb-1',
      COLLAB_API_URL: 'https://collab.example.com',
      COLLAB_API_KEY: 'k',
    };
    expect(loadConfig(base).jobsDashboard).toBeUndefined();
    expect(() => loadConfig({ ...base, JOBS_DASHBOARD_USER: USER })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, JOBS_DASHBOARD_PASSWORD: PASSWORD })).toThrow(ConfigError);
    expect(() =>
      loadConfig({ ...base, JOBS_DASHBOARD_USER: USER, JOBS_DASHBOARD_PASSWORD: 'short' }),
    ).toThrow(/at least 16/);
    expect(loadConfig({ ...base, ...dashboardEnv() }).jobsDashboard).toEqual({
      user: USER,
      password: PASSWORD,
      write: false,
    });
  });

  it('checks credentials by their whole value', () => {
    const allowed = credentialsCheck(USER, PASSWORD);
    expect(allowed(basic(USER, PASSWORD))).toBe(true);
    expect(allowed(`basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`)).toBe(true);
    expect(allowed(undefined)).toBe(false);
    expect(allowed('Bearer x')).toBe(false);
    expect(allowed(basic(USER, PASSWORD.slice(0, -1)))).toBe(false);
  });
});
