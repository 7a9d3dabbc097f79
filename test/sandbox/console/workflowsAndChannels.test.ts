/**
 * The console's additions, against the real bot: the Workflows panel lists the app's steps, runs
 * one as Slack does (a signed function_executed) and shows the completion the stand-in recorded;
 * Slack's own `/archive` and `/unarchive` in a channel change the stand-in's channel and send the
 * bot the events Slack sends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.ts';
import { WORKFLOW_STEPS } from '../../../src/operations/workflowSteps.ts';
import { type SandboxConsole, startConsole } from '../../../src/sandbox/console/server.ts';
import { defaultUsers } from '../../../src/sandbox/slack/index.ts';
import { type Harness, startHarness, TEAM } from '../../support/harness.ts';

describe('console: Workflows panel and channels that come and go', () => {
  let h: Harness;
  let console: SandboxConsole;
  beforeAll(async () => {
    h = await startHarness();
    console = await startConsole({
      slack: h.slack,
      botUrl: `${h.baseUrl}/slack/events`,
      signingSecret: h.signingSecret,
      command: '/collab',
      teamId: TEAM,
      botUserId: 'U_BOT',
      users: defaultUsers(TEAM),
      channels: [],
      logger: createLogger({ level: 'silent' }),
    });
  });
  afterAll(async () => {
    await console?.close();
    await h?.close();
  });

  const api = async (path: string, body?: unknown) => {
    const res = await fetch(`${console.url}${path}`, {
      ...(body === undefined
        ? {}
        : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return (await res.json()) as {
      ok?: boolean;
      executionId?: string;
      steps: Array<{ callbackId: string }>;
      runs: Array<Record<string, unknown>>;
    };
  };

  it('lists the steps, runs one as Slack does, and shows the outputs it completed with', async () => {
    const listed = await api('/api/workflows');
    expect(listed.steps.map((s) => s.callbackId)).toEqual(Object.keys(WORKFLOW_STEPS));

    const ran = await api('/api/workflows/run', {
      callbackId: 'create_post',
      inputs: { channel: 'engineering', title: 'From the console', content: 'Run by hand' },
    });
    expect(ran.ok).toBe(true);
    const done = await h.slackCall(
      (c) => c.method === 'functions.completeSuccess' && c.args.function_execution_id === ran.executionId,
    );
    expect(done.token).toMatch(/^xwfp-/);
    const after = await api('/api/workflows');
    expect(after.runs[0]).toMatchObject({
      executionId: ran.executionId,
      outcome: { ok: true, outputs: { post_id: expect.any(String) } },
    });
  });

  it('/archive and /unarchive pause and resume the channel', async () => {
    const archived = h.nextSettled('slackChannelChanged');
    await api('/api/send', { channel: 'C_CONSOLE', user: 'U_ADA', text: '/archive' });
    expect((await archived).state).toBe('completed');
    expect(await h.bot.store.slackChannels.get(TEAM, 'C_CONSOLE')).toMatchObject({
      paused: true,
      reason: 'archived',
    });

    const back = h.nextSettled('slackChannelChanged');
    await api('/api/send', { channel: 'C_CONSOLE', user: 'U_ADA', text: '/unarchive' });
    expect((await back).state).toBe('completed');
    expect(await h.bot.store.slackChannels.isPaused(TEAM, 'C_CONSOLE')).toBe(false);
  });
});
