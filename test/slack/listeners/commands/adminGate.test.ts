/**
 * Linking and unlinking channels are for workspace admins and owners (users.info) and the people
 * ADMIN_USER_IDS names: anyone else hears a polite refusal and nothing is enqueued.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../support/harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const queued = async (harness: Harness) => {
  const counts = await harness.bot.queue.queue.getJobCounts(
    'waiting',
    'active',
    'delayed',
    'completed',
    'failed',
  );
  return Object.values(counts).reduce((a, b) => a + b, 0);
};

describe('the admin gate on settings', () => {
  it('refuses a non-admin link or unlink and enqueues nothing', async () => {
    h = await startHarness({ worker: false });
    for (const text of ['link #engineering', 'unlink']) {
      const answer = await h.command(text, { user: 'U_GRACE' });
      expect(answer.status).toBe(200);
      expect(answer.json<{ text: string }>().text).toMatch(/Only workspace admins and owners/);
    }
    expect(await queued(h)).toBe(0);
    expect(await h.bot.store.audit.recent('T_LOCAL')).toEqual([]);
  });

  it('lets an admin link: the job is enqueued and the change audited', async () => {
    h = await startHarness({ worker: false });
    const answer = await h.command('link #engineering', { user: 'U_ADA' });
    expect(answer.json<{ text: string }>().text).not.toMatch(/Only workspace admins/);
    expect(await queued(h)).toBe(1);
    const [entry] = await h.bot.store.audit.recent('T_LOCAL');
    expect(entry).toMatchObject({ userId: 'U_ADA', action: 'link requested', slackChannel: 'C_GENERAL' });
  });

  it('lets the people of ADMIN_USER_IDS through, without asking Slack', async () => {
    h = await startHarness({ worker: false, env: { ADMIN_USER_IDS: 'U_SOMEONE, U_GRACE' } });
    await h.command('unlink', { user: 'U_GRACE' });
    expect(await queued(h)).toBe(1);
    expect(h.slack.calls.filter((c) => c.method === 'users.info')).toEqual([]);
  });

  it('leaves other commands to everyone', async () => {
    h = await startHarness({ worker: false });
    await h.command('channels', { user: 'U_GRACE' });
    expect(await queued(h)).toBe(1);
  });
});
