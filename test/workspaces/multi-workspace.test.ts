/**
 * Multi-workspace mode end to end: OAuth install against the Slack stand-in, connecting each
 * workspace to its own organisation from App Home, keys sealed at rest, two workspaces never
 * mixing, reconnect / disconnect, and uninstall removing everything of one workspace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS, INPUTS } from '../../src/render/ids.ts';
import { OTHER_INSTALLATION } from '../../src/sandbox/slack/index.ts';
import { appHomeOpened, appUninstalled, blockActions } from '../../src/sandbox/slack/payloads.ts';
import { NOT_CONNECTED } from '../../src/workspaces/workspaces.ts';
import {
  ADA,
  allValues,
  GRACE,
  LOCAL_TEAM,
  LOCAL_TOKEN,
  type MultiHarness,
  OTHER_TEAM,
  startMultiHarness,
} from '../support/multi-harness.ts';

let h: MultiHarness;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  h = await startMultiHarness();
  [keyA, keyB] = h.emulator.apiKeys as [string, string];
});
afterAll(async () => {
  await h?.close();
});

const textOf = (value: unknown) => JSON.stringify(value ?? '');

describe('multi-workspace mode', () => {
  it('installs a workspace through OAuth: install page → Slack → redirect → installation stored, sealed', async () => {
    const { installLocation, redirect } = await h.install();
    const authorize = new URL(installLocation);
    expect(`${authorize.origin}${authorize.pathname}`).toBe('https://slack.com/oauth/v2/authorize');
    expect(authorize.searchParams.get('client_id')).toBe('test-client-id');
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('scope')?.split(',')).toContain('commands');
    expect(redirect.status).toBe(200);

    const exchange = await h.slack.waitFor((c) => c.method === 'oauth.v2.access');
    expect(exchange.args.code).toBe(OTHER_INSTALLATION.code);
    const stored = await h.redis.get(`${h.prefix}:t:${OTHER_TEAM}:installation`);
    expect(stored).toMatch(/^enc:v1:/);
    expect(stored).not.toContain(OTHER_INSTALLATION.accessToken);
  });

  it('tells a person of an installed but unconnected workspace how to connect it', async () => {
    const settled = h.nextSettled('listChannels');
    const ack = await h.command(OTHER_TEAM, 'channels');
    expect(ack.status).toBe(200);
    expect((await settled).state).toBe('failed');
    const told = await h.slack.waitFor(
      (c) =>
        c.method === 'response_url' && textOf(c.args).includes('not connected to the collaboration service'),
    );
    expect(textOf(told.args)).toContain(NOT_CONNECTED.slice(0, 40));
  });

  it('refuses a rejected key, an unreachable url and a plain-http url inline, saving nothing', async () => {
    const rejected = await h.connect(OTHER_TEAM, 'not-a-valid-key');
    expect(rejected.json<{ errors: Record<string, string> }>().errors[INPUTS.apiKey.block]).toMatch(
      /rejected/,
    );
    const unreachable = await h.connect(OTHER_TEAM, keyB, { baseUrl: 'http://127.0.0.1:1' });
    expect(unreachable.json<{ errors: Record<string, string> }>().errors[INPUTS.baseUrl.block]).toMatch(
      /reach/,
    );
    const insecure = await h.connect(OTHER_TEAM, keyB, { baseUrl: 'http://collab.example.com' });
    expect(insecure.json<{ errors: Record<string, string> }>().errors[INPUTS.baseUrl.block]).toMatch(/https/);
    expect(await h.redis.exists(`${h.prefix}:t:${OTHER_TEAM}:connection`)).toBe(0);
  });

  it('refuses to let a non-admin connect', async () => {
    const answer = await h.connect(OTHER_TEAM, keyB, { user: GRACE });
    expect(answer.json<{ errors: Record<string, string> }>().errors[INPUTS.baseUrl.block]).toMatch(/admins/);
  });

  it('connects two workspaces to two organisations; their posts never mix, each under its own token', async () => {
    await h.installLocal();
    expect((await h.connect(OTHER_TEAM, keyB)).body).toBe('');
    expect((await h.connect(LOCAL_TEAM, keyA)).body).toBe('');

    const first = h.nextSettled('createPost');
    await h.command(LOCAL_TEAM, 'post #engineering From the local workspace | A');
    expect((await first).state).toBe('completed');
    const second = h.nextSettled('createPost');
    await h.command(OTHER_TEAM, 'post #engineering From the other workspace | B');
    expect((await second).state).toBe('completed');

    const titles = (key: string) => [...h.emulator.org(key).posts.values()].map((p) => p.title);
    expect(titles(keyA)).toContain('From the local workspace');
    expect(titles(keyA)).not.toContain('From the other workspace');
    expect(titles(keyB)).toContain('From the other workspace');
    expect(titles(keyB)).not.toContain('From the local workspace');

    const card = (title: string) =>
      h.slack.waitFor((c) => c.method === 'chat.postMessage' && textOf(c.args.blocks).includes(title));
    expect((await card('From the other workspace')).token).toBe(OTHER_INSTALLATION.accessToken);
    expect((await card('From the local workspace')).token).toBe(LOCAL_TOKEN);
  });

  it('keeps API keys and bot tokens out of Redis in clear', async () => {
    const values = await allValues(h.redis, h.prefix);
    expect(values.length).toBeGreaterThan(0);
    for (const secret of [keyA, keyB, OTHER_INSTALLATION.accessToken, LOCAL_TOKEN]) {
      const leaks = values.filter((v) => v.text.includes(secret)).map((v) => v.key);
      expect(leaks, secret.slice(0, 10)).toEqual([]);
    }
  });

  it('shows the connection and the audit on App Home, never the key', async () => {
    await h.event(OTHER_TEAM, appHomeOpened({ user: ADA }));
    const publish = await h.slack.waitFor(
      (c) => c.method === 'views.publish' && c.token === OTHER_INSTALLATION.accessToken,
    );
    const home = textOf(publish.args.view);
    expect(home).toContain('Connected to');
    expect(home).toContain(h.emulator.url);
    expect(home).toContain('connected');
    expect(home).toContain(ACTIONS.disconnect);
    expect(home).not.toContain(keyB);
  });

  it('reopens the modal with the url and "a key is saved", and an empty key keeps the saved one', async () => {
    await h.interact(
      blockActions({
        user: ADA,
        team_id: OTHER_TEAM,
        trigger_id: 'trigger-reconnect',
        actions: [{ action_id: ACTIONS.connect }],
        view: { id: 'V_HOME', callback_id: '', type: 'home' },
      }),
    );
    const open = await h.slack.waitFor(
      (c) => c.method === 'views.open' && c.args.trigger_id === 'trigger-reconnect',
    );
    const modal = textOf(open.args.view);
    expect(modal).toContain('A key is saved');
    expect(modal).not.toContain(keyB);
    expect((await h.connect(OTHER_TEAM, '')).body).toBe('');
    // The connection is acked first; the audit entry is written before App Home is published.
    // Wait for the Home that shows it: the earlier test's Home job may still publish in between.
    await h.slack.waitFor(
      (c) =>
        c.method === 'views.publish' &&
        c.token === OTHER_INSTALLATION.accessToken &&
        textOf(c.args.view).includes('reconnected'),
    );
    const audit = await h.redis.lrange(`${h.prefix}:t:${OTHER_TEAM}:audit`, 0, 0);
    expect(audit[0]).toContain('reconnected');
  });

  it('disconnects from App Home; jobs then tell the person to connect again', async () => {
    await h.interact(
      blockActions({
        user: ADA,
        team_id: OTHER_TEAM,
        actions: [{ action_id: ACTIONS.disconnect }],
        view: { id: 'V_HOME', callback_id: '', type: 'home' },
      }),
    );
    await h.logs.waitFor((l) => l.msg === 'workspace disconnected from the service');
    expect(await h.redis.exists(`${h.prefix}:t:${OTHER_TEAM}:connection`)).toBe(0);
    const settled = h.nextSettled('listChannels');
    await h.command(OTHER_TEAM, 'channels');
    expect((await settled).state).toBe('failed');
    await h.connect(OTHER_TEAM, keyB);
  });

  it('removes everything of a workspace on app_uninstalled: keys, schedules, pending jobs', async () => {
    const queue = h.bot.queue.queue;
    const origin = (teamId: string) => ({
      teamId,
      userId: ADA,
      slackChannel: 'C_GENERAL',
      receivedAt: Date.now(),
      source: 'command',
    });
    const otherJob = await queue.add('listChannels', { origin: origin(OTHER_TEAM) }, { delay: 3_600_000 });
    const localJob = await queue.add('listChannels', { origin: origin(LOCAL_TEAM) }, { delay: 3_600_000 });
    // Starts in an hour: a tick running now would race the cleanup it is meant to be removed by.
    await queue.upsertJobScheduler(
      `${OTHER_TEAM}-digest-C_GENERAL`,
      { every: 3_600_000, startDate: Date.now() + 3_600_000 },
      {
        name: 'listChannels',
        data: { origin: origin(OTHER_TEAM) },
      },
    );

    await h.event(OTHER_TEAM, appUninstalled());
    await h.logs.waitFor((l) => l.msg === 'workspace data removed' && l.teamId === OTHER_TEAM);

    const keysOf = async (team: string) =>
      (await allValues(h.redis, `${h.prefix}:t:${team}`)).map((v) => v.key);
    expect(await keysOf(OTHER_TEAM)).toEqual([]);
    expect(await keysOf(LOCAL_TEAM)).not.toEqual([]);
    expect(await queue.getJob(otherJob.id!)).toBeUndefined();
    expect(await queue.getJob(localJob.id!)).toBeDefined();
    expect((await queue.getJobSchedulers()).map((s) => s.key)).not.toContain(
      `${OTHER_TEAM}-digest-C_GENERAL`,
    );
  });
});
