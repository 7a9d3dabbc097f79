/**
 * Grid and Slack Connect payloads from the builders, read by a real Bolt app: the installation
 * Bolt looks up (its authorize source) and the identities its listeners see are those Slack's
 * own fixtures lead to — the proof that the shapes are Slack's, not just well typed.
 */
import { App, type AuthorizeSourceData, LogLevel } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  blockActions,
  eventBody,
  interactionBody,
  messageEvent,
  orgWide,
  sharedChannel,
  slashCommandBody,
  viewSubmission,
} from '../../../src/sandbox/slack/index.ts';
import { boltBaseUrl, postToBolt } from '../../support/slack-client.ts';

const SIGNING_SECRET = 'test-signing-secret';

let app: App;
let baseUrl: string;
/** What Bolt asked authorize for, and the body its listener got, by the test's marker. */
let sources: AuthorizeSourceData<boolean>[] = [];
const bodies = new Map<string, Record<string, unknown>>();
const waiting = new Map<string, (body: Record<string, unknown>) => void>();

function seen(marker: string): Promise<Record<string, unknown>> {
  const body = bodies.get(marker);
  if (body !== undefined) return Promise.resolve(body);
  return new Promise((resolve) => waiting.set(marker, resolve));
}

function saw(marker: string, body: unknown): void {
  bodies.set(marker, body as Record<string, unknown>);
  waiting.get(marker)?.(body as Record<string, unknown>);
}

beforeAll(async () => {
  app = new App({
    signingSecret: SIGNING_SECRET,
    logLevel: LogLevel.ERROR,
    authorize: async (source) => {
      sources.push(source);
      return { botToken: 'xoxb-test', botId: 'B_X', botUserId: 'U_BOT' };
    },
  });
  app.action('mark', async ({ ack, body }) => {
    await ack();
    saw('action', body);
  });
  app.command('/collab', async ({ ack, body }) => {
    await ack();
    saw('command', body);
  });
  app.view('form', async ({ ack, body }) => {
    await ack();
    saw('view', body);
  });
  app.message(async ({ body }) => {
    saw('message', body);
  });
  baseUrl = boltBaseUrl(await app.start(0));
});

afterAll(() => app.stop());

beforeEach(() => {
  sources = [];
  bodies.clear();
});

const click = (options: Parameters<typeof blockActions>[0]) =>
  postToBolt(baseUrl, SIGNING_SECRET, 'interaction', interactionBody(blockActions(options)));

const command = (fields: Partial<Parameters<typeof slashCommandBody>[0]>) =>
  postToBolt(
    baseUrl,
    SIGNING_SECRET,
    'command',
    slashCommandBody({
      command: '/collab',
      text: 'list',
      user_id: 'W_ADA',
      channel_id: 'C_GENERAL',
      team_id: 'T_LOCAL',
      response_url: 'https://hooks.slack.example/commands/1',
      trigger_id: '1.2.3',
      ...fields,
    }),
  );

describe('Enterprise Grid, org-wide install', () => {
  const grid = orgWide();

  it('a click: team null, Bolt looks up the enterprise install for the workspace of user.team_id', async () => {
    expect(
      (await click({ ...grid.interaction, user: 'W_ADA', actions: [{ action_id: 'mark' }] })).status,
    ).toBe(200);
    const body = await seen('action');
    expect(body).toMatchObject({
      team: null,
      enterprise: { id: 'E_ORG', name: 'Org Corp' },
      is_enterprise_install: true,
      user: { id: 'W_ADA', team_id: 'T_ORG_A' },
    });
    expect(sources).toEqual([
      expect.objectContaining({ teamId: 'T_ORG_A', enterpriseId: 'E_ORG', isEnterpriseInstall: true }),
    ]);
  });

  it('a slash command: enterprise_id, enterprise_name, is_enterprise_install=true', async () => {
    expect((await command({ ...grid.command })).status).toBe(200);
    expect(await seen('command')).toMatchObject({
      team_id: 'T_ORG_A',
      enterprise_id: 'E_ORG',
      enterprise_name: 'Org Corp',
      is_enterprise_install: 'true',
    });
    expect(sources).toEqual([
      expect.objectContaining({ teamId: 'T_ORG_A', enterpriseId: 'E_ORG', isEnterpriseInstall: true }),
    ]);
  });

  it('an event: authorizations name the enterprise with team_id null; the envelope the workspace', async () => {
    const event = messageEvent({ ...grid.author, channel: 'C_GENERAL', user: 'W_ADA', text: 'hi' });
    expect((await postToBolt(baseUrl, SIGNING_SECRET, 'event', eventBody(event, grid.envelope))).status).toBe(
      200,
    );
    expect(await seen('message')).toMatchObject({
      team_id: 'T_ORG_A',
      enterprise_id: 'E_ORG',
      authorizations: [
        {
          enterprise_id: 'E_ORG',
          team_id: null,
          user_id: 'W_BOT_ORG',
          is_bot: true,
          is_enterprise_install: true,
        },
      ],
      event: { team: 'T_ORG_A', user: 'W_ADA' },
    });
    expect(sources).toEqual([
      expect.objectContaining({ teamId: 'T_ORG_A', enterpriseId: 'E_ORG', isEnterpriseInstall: true }),
    ]);
  });
});

describe('Slack Connect, a person of another organisation', () => {
  const connect = sharedChannel();

  it('an event in the shared channel: the envelope names their workspace, authorizations the installation', async () => {
    const event = messageEvent({ ...connect.author, channel: 'C_SHARED', user: 'U_PARTNER', text: 'hello' });
    expect(
      (await postToBolt(baseUrl, SIGNING_SECRET, 'event', eventBody(event, connect.envelope))).status,
    ).toBe(200);
    expect(await seen('message')).toMatchObject({
      team_id: 'T_PARTNER',
      is_ext_shared_channel: true,
      event: { user: 'U_PARTNER', team: 'T_PARTNER', user_team: 'T_PARTNER', source_team: 'T_PARTNER' },
    });
    expect(sources).toEqual([
      expect.objectContaining({ teamId: 'T_LOCAL', enterpriseId: undefined, isEnterpriseInstall: false }),
    ]);
  });

  it("a click: team and user.team_id are the person's own workspace — not the installation", async () => {
    await click({ ...connect.interaction, user: 'U_PARTNER', actions: [{ action_id: 'mark' }] });
    expect(await seen('action')).toMatchObject({ team: { id: 'T_PARTNER' }, user: { team_id: 'T_PARTNER' } });
    expect(sources).toEqual([expect.objectContaining({ teamId: 'T_PARTNER' })]);
  });

  it("a modal the app opened: view.app_installed_team_id names the app's workspace, and Bolt acts for it", async () => {
    const payload = viewSubmission({
      ...connect.interaction,
      user: 'U_PARTNER',
      view: { id: 'V1', callback_id: 'form', app_installed_team_id: 'T_LOCAL' },
    });
    await postToBolt(baseUrl, SIGNING_SECRET, 'interaction', interactionBody(payload));
    expect(await seen('view')).toMatchObject({
      user: { team_id: 'T_PARTNER' },
      view: { app_installed_team_id: 'T_LOCAL' },
    });
    expect(sources).toEqual([expect.objectContaining({ teamId: 'T_LOCAL' })]);
  });
});
