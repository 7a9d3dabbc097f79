/**
 * The jobs dashboard on the web role: off unless configured, refused without the right
 * credentials, served with them, and read-only unless JOBS_DASHBOARD_WRITE.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { credentialsCheck, redactJobData } from '../../src/ops/dashboard.ts';
import { clientOf, loginThrottle } from '../../src/ops/loginThrottle.ts';
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

  it('may not be framed: X-Frame-Options DENY and CSP frame-ancestors none, asked for credentials or not', async () => {
    h = await startHarness({ worker: false, env: dashboardEnv() });
    for (const headers of [{}, { authorization: basic(USER, PASSWORD) }] as Array<Record<string, string>>) {
      const response = await fetch(`${h.baseUrl}/jobs`, { headers });
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    }
  });

  it('locks a client out after 10 wrong passwords: 429 with Retry-After, even for the right one; others go on', async () => {
    h = await startHarness({ worker: false, env: dashboardEnv() });
    const wrong = { authorization: basic(USER, 'wrong-password-of-some-length') };
    const right = { authorization: basic(USER, PASSWORD) };
    // Asking without credentials (a browser's first request) is no guess.
    for (let i = 0; i < 3; i++) expect((await fetch(`${h.baseUrl}/jobs`)).status).toBe(401);
    for (let i = 0; i < 10; i++) {
      expect((await fetch(`${h.baseUrl}/jobs`, { headers: wrong })).status).toBe(401);
    }
    const locked = await fetch(`${h.baseUrl}/jobs`, { headers: right });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await fetch(`${h.baseUrl}/jobs/api/queues`, { headers: wrong })).status).toBe(429);
    // Another client (another address: IPv6 loopback) is not locked out.
    const elsewhere = await fetch(`http://[::1]:${h.bot.port}/jobs`, { headers: right });
    expect(elsewhere.status).toBe(200);
  });

  it('throttles per client within a window, forgets at its end, clears on success, and remembers few', () => {
    let now = 0;
    const throttle = loginThrottle({ maxFailures: 3, windowMs: 1000, maxClients: 2 }, () => now);
    throttle.failed('a');
    throttle.failed('a');
    throttle.succeeded('a');
    throttle.failed('a');
    throttle.failed('a');
    expect(throttle.lockedFor('a')).toBe(0);
    throttle.failed('a');
    expect(throttle.lockedFor('a')).toBe(1000);
    now = 600;
    expect(throttle.lockedFor('a')).toBe(400);
    expect(throttle.lockedFor('b')).toBe(0);
    now = 1000;
    expect(throttle.lockedFor('a')).toBe(0);
    for (const client of ['c', 'd', 'e']) for (let i = 0; i < 3; i++) throttle.failed(client);
    expect(['c', 'd', 'e'].map((c) => throttle.lockedFor(c) > 0)).toEqual([false, true, true]);
  });

  it('counts an IPv6 /64 as one client, and an IPv4-mapped address as its IPv4 one', () => {
    expect(clientOf('2001:db8:1:2:aaaa::1')).toBe(clientOf('2001:db8:1:2:bbbb:cccc:dddd:2'));
    expect(clientOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientOf('2001:db8:1:3::1')).not.toBe(clientOf('2001:db8:1:2::1'));
    expect(clientOf('::1')).toBe('0:0:0:0::/64');
    expect(clientOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientOf('::ffff:10.0.0.7')).toBe('10.0.0.7');
    expect(clientOf('10.0.0.7')).toBe('10.0.0.7');
    expect(clientOf(undefined)).toBe('unknown');
  });

  it('shows job data with response urls and tokens redacted', async () => {
    h = await startHarness({ worker: false, env: dashboardEnv() });
    const responseUrl = 'https://hooks.slack.com/commands/T1/123/secret-capability';
    const origin = {
      teamId: 'T_LOCAL',
      userId: 'U_ADA',
      slackChannel: 'C_GENERAL',
      responseUrl,
      receivedAt: Date.now(),
      source: 'command',
    };
    const later = { delay: 3_600_000 };
    const queue = h.bot.queue.queue;
    const listed = await queue.add('listChannels', { origin }, later);
    const step = await queue.add(
      'runWorkflowStep',
      { teamId: 'T_LOCAL', callbackId: 'c', executionId: 'Fx1', token: 'xwfp-step-token', inputs: {} },
      later,
    );
    // A step's progress record could carry one too.
    await listed.updateProgress({ told: { via: responseUrl } });
    const read = async (path: string) =>
      (
        await fetch(`${h!.baseUrl}/jobs/api/${path}`, { headers: { authorization: basic(USER, PASSWORD) } })
      ).text();
    const pages = [
      await read('queues?activeQueue=operations&status=delayed&page=1&jobsPerPage=10'),
      await read(`queues/operations/${listed.id}`),
      await read(`queues/operations/${step.id}`),
    ];
    expect(pages[0]).toContain(listed.id);
    for (const page of pages) {
      expect(page).not.toContain('secret-capability');
      expect(page).not.toContain('xwfp-step-token');
    }
    expect(pages[1]).toContain('"responseUrl":"[redacted]"');
    expect(redactJobData({ error: `posting to ${responseUrl} failed`, n: 1, list: [null] })).toEqual({
      error: 'posting to [redacted] failed',
      n: 1,
      list: [null],
    });
  });
});
