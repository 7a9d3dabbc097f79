/**
 * SLACK-FACTS.md, fact by fact: the rules Slack enforces on an app, and the proof that the Slack
 * stand-in enforces them when they are switched on. One row per fact, in the document's order;
 * each row runs against a fresh stand-in on a manual clock (never a sleep), over real HTTP.
 */
import { ErrorCode, LogLevel, type WebAPIRateLimitedError, WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import {
  blockActions,
  CONNECT_PARTNER,
  defaultUsers,
  eventEnvelope,
  functionExecuted,
  GRID_ORG,
  gridUsers,
  KIND_RULES,
  ORG_INSTALLATION,
  OTHER_INSTALLATION,
  partnerUser,
  SLACK_NUMBERS,
  type SlackStandIn,
  type SlackStandInOptions,
  startSlackStandIn,
} from '../../../src/sandbox/slack/index.ts';
import type { SlackRulesInput } from '../../../src/sandbox/slack/rules.ts';
import { type ManualClock, manualClock } from '../emulator/helpers.ts';
import { api, MODAL, respond, statuses } from './helpers.ts';

interface World {
  slack: SlackStandIn;
  clock: ManualClock;
}

interface Fact {
  fact: string;
  /** the rules the row switches on (the stand-in is kind without them) */
  rules: SlackRulesInput;
  options?: SlackStandInOptions;
  check(world: World): Promise<void>;
}

const MINUTE = 60_000;

async function post(slack: SlackStandIn, channel: string, text = 'x') {
  return api(slack, 'chat.postMessage', { channel, text });
}

/** A message of the bot to edit, posted before the rules are switched on. */
async function botMessage(slack: SlackStandIn): Promise<string> {
  const posted = await post(slack, 'C_EDIT');
  return String(posted.json.ts);
}

/** The org-wide install of ORG_INSTALLATION, through the OAuth exchange. */
async function installOrg(slack: SlackStandIn): Promise<string> {
  const answer = await api(slack, 'oauth.v2.access', { code: ORG_INSTALLATION.code }, '');
  expect(answer.json.ok).toBe(true);
  return String(answer.json.access_token);
}

const RATE_LIMITS: Fact[] = [
  {
    fact: 'tiers as SLACK-FACTS.md tables them: Tier 2 20, Tier 3 50, Tier 4 100 a minute; chat.postMessage, auth.test, chat.getPermalink special',
    rules: 'off',
    async check() {
      const { tiers, methods } = SLACK_NUMBERS.rateLimits;
      expect([tiers[2].perMinute, tiers[3].perMinute, tiers[4].perMinute]).toEqual([20, 50, 100]);
      const table: Record<number, string[]> = {
        2: ['users.list', 'conversations.list'],
        3: [
          'chat.update',
          'chat.unfurl',
          'users.lookupByEmail',
          'conversations.replies',
          'conversations.history',
          'conversations.info',
          'conversations.join',
          'conversations.open',
          'reactions.add',
          'functions.completeSuccess',
          'functions.completeError',
        ],
        4: [
          'chat.postEphemeral',
          'views.open',
          'views.update',
          'views.push',
          'views.publish',
          'users.info',
          'users.profile.get',
          'conversations.members',
          'oauth.v2.access',
        ],
      };
      for (const [tier, names] of Object.entries(table)) {
        for (const name of names) expect([name, methods[name]]).toEqual([name, Number(tier)]);
      }
      for (const special of ['chat.postMessage', 'auth.test', 'chat.getPermalink']) {
        expect(methods[special]).toBeUndefined();
      }
    },
  },
  {
    fact: 'per (workspace, method): a tier allows its minute at once after a quiet spell, then 429 ratelimited with Retry-After',
    rules: { rateLimits: true },
    async check({ slack }) {
      expect(new Set(await statuses(slack, 100, 'users.info', () => ({ user: 'U_ADA' })))).toEqual(
        new Set([200]),
      );
      const tier4 = await api(slack, 'users.info', { user: 'U_ADA' });
      expect(tier4).toEqual({ status: 429, retryAfter: '1', json: { ok: false, error: 'ratelimited' } });
      const tier3 = await statuses(slack, 51, 'conversations.info', () => ({ channel: 'C_GENERAL' }));
      expect(tier3.slice(0, 50).every((status) => status === 200)).toBe(true);
      expect(tier3[50]).toBe(429);
      // 50 a minute: the next call is 1.2 s away, told in whole seconds.
      expect((await api(slack, 'conversations.info', { channel: 'C_GENERAL' })).retryAfter).toBe('2');
    },
  },
  {
    fact: 'another method, or another workspace, is not held back by a method at its limit',
    rules: { rateLimits: { tiers: { 3: { perMinute: 3, burst: 3 } } } },
    async check({ slack }) {
      await api(slack, 'oauth.v2.access', { code: OTHER_INSTALLATION.code }, '');
      expect(await statuses(slack, 4, 'conversations.info', () => ({ channel: 'C_GENERAL' }))).toEqual([
        200, 200, 200, 429,
      ]);
      expect((await api(slack, 'users.lookupByEmail', { email: 'ada@example.com' })).status).toBe(200);
      const other = await api(
        slack,
        'conversations.info',
        { channel: 'C_GENERAL' },
        OTHER_INSTALLATION.accessToken,
      );
      expect(other.status).toBe(200);
      expect(slack.calls.at(-1)?.workspace).toBe(OTHER_INSTALLATION.teamId);
    },
  },
  {
    fact: 'a Retry-After is to be waited out: calls inside it are refused again (and counted), the first after it is answered',
    rules: { rateLimits: { tiers: { 3: { perMinute: 50, burst: 1 } } } },
    async check({ slack, clock }) {
      const ts = await botMessage(slack);
      const edit = () => api(slack, 'chat.update', { channel: 'C_EDIT', ts, text: 'edited' });
      expect((await edit()).status).toBe(200);
      expect((await edit()).retryAfter).toBe('2');
      clock.tick(1_000);
      const inside = await edit();
      expect([inside.status, inside.retryAfter]).toEqual([429, '1']);
      clock.tick(1_000);
      expect((await edit()).status).toBe(200);
      expect(slack.traffic().methods['chat.update']).toEqual({
        calls: 4,
        ok: 2,
        ratelimited: 2,
        duringRetryAfter: 1,
        expired: 0,
      });
    },
  },
  {
    fact: '@slack/web-api reads the 429 as a rate-limited error with its retryAfter',
    rules: { rateLimits: { tiers: { 4: { perMinute: 6, burst: 1 } } } },
    async check({ slack }) {
      const client = new WebClient('xoxb-test-local', {
        slackApiUrl: slack.url,
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
        logLevel: LogLevel.ERROR,
      });
      await client.users.info({ user: 'U_ADA' });
      const error = (await client.users
        .info({ user: 'U_ADA' })
        .catch((e: unknown) => e)) as WebAPIRateLimitedError;
      expect([error.code, error.retryAfter]).toEqual([ErrorCode.RateLimitedError, 10]);
    },
  },
  {
    fact: 'chat.postMessage: about 1 message a second per channel, short bursts allowed; other channels go on',
    rules: { rateLimits: true },
    async check({ slack, clock }) {
      const general = [];
      for (let i = 0; i < 4; i++) general.push((await post(slack, 'C_GENERAL')).status);
      expect(general).toEqual([200, 200, 200, 429]);
      expect((await post(slack, 'C_RANDOM')).status).toBe(200);
      clock.tick(1_000);
      expect((await post(slack, 'C_GENERAL')).status).toBe(200);
      expect((await post(slack, 'C_GENERAL')).retryAfter).toBe('1');
    },
  },
  {
    fact: 'chat.postMessage: a workspace-wide limit over every channel together',
    rules: { rateLimits: { postMessagePerWorkspace: { perMinute: 5, burst: 5 } } },
    async check({ slack }) {
      const posted = [];
      for (let i = 0; i < 6; i++) posted.push((await post(slack, `C_${i}`)).status);
      expect(posted).toEqual([200, 200, 200, 200, 200, 429]);
      expect(slack.traffic().refusals).toEqual([
        expect.objectContaining({
          method: 'chat.postMessage',
          by: 'rateLimits',
          channel: 'C_5',
          retryAfterSec: 12,
        }),
      ]);
    },
  },
  {
    fact: 'auth.test and chat.getPermalink have generous limits of their own',
    rules: { rateLimits: true },
    async check({ slack }) {
      const ts = await botMessage(slack);
      expect(new Set(await statuses(slack, 150, 'auth.test'))).toEqual(new Set([200]));
      const links = await statuses(slack, 150, 'chat.getPermalink', () => ({
        channel: 'C_EDIT',
        message_ts: ts,
      }));
      expect(new Set(links)).toEqual(new Set([200]));
    },
  },
  {
    fact: 'apps not approved for the Marketplace: conversations.replies 1 a minute, 15 messages a page',
    rules: { rateLimits: { marketplaceApproved: false } },
    async check({ slack, clock }) {
      const parent = slack.seedMessage('C_GENERAL', { user: 'U_ADA', text: 'question' });
      for (let i = 0; i < 20; i++)
        slack.seedMessage('C_GENERAL', { user: 'U_GRACE', text: `r${i}`, thread_ts: parent.ts });
      const page = await api(slack, 'conversations.replies', {
        channel: 'C_GENERAL',
        ts: parent.ts,
        limit: 100,
      });
      expect([(page.json.messages as unknown[]).length, page.json.has_more]).toEqual([15, true]);
      const again = await api(slack, 'conversations.replies', { channel: 'C_GENERAL', ts: parent.ts });
      expect([again.status, again.retryAfter]).toEqual([429, '60']);
      clock.tick(MINUTE);
      expect(
        (await api(slack, 'conversations.replies', { channel: 'C_GENERAL', ts: parent.ts })).status,
      ).toBe(200);
    },
  },
  {
    fact: 'on Enterprise Grid each workspace of the org has its own limits (an org token names it with team_id)',
    rules: { rateLimits: { tiers: { 3: { perMinute: 2, burst: 2 } } } },
    async check({ slack }) {
      const token = await installOrg(slack);
      slack.grantOrgWorkspace(GRID_ORG.id, 'T_ORG_B');
      const lookup = (team_id: string) =>
        api(slack, 'users.lookupByEmail', { email: 'ada@example.com', team_id }, token);
      const a = [];
      for (let i = 0; i < 3; i++) a.push((await lookup('T_ORG_A')).status);
      expect(a).toEqual([200, 200, 429]);
      expect((await lookup('T_ORG_B')).status).toBe(200);
      expect(slack.traffic().refusals.map((r) => r.workspace)).toEqual(['T_ORG_A']);
    },
  },
  {
    fact: 'inspection: calls, 429s and calls inside a running Retry-After per method, what was refused, when each channel got its messages',
    rules: { rateLimits: { postMessagePerChannel: { perMinute: 60, burst: 1 } } },
    async check({ slack, clock }) {
      await post(slack, 'C_A');
      await post(slack, 'C_A');
      clock.tick(500);
      await post(slack, 'C_A');
      await post(slack, 'C_B');
      clock.tick(500);
      await post(slack, 'C_A');
      const traffic = slack.traffic();
      expect(traffic.methods['chat.postMessage']).toEqual({
        calls: 5,
        ok: 3,
        ratelimited: 2,
        duringRetryAfter: 1,
        expired: 0,
      });
      expect(traffic.total.calls).toBe(5);
      const start = Date.parse('2025-03-03T09:00:00.000Z');
      expect(traffic.postedAt).toEqual({ C_A: [start, start + 1_000], C_B: [start + 500] });
      expect(traffic.refusals.map((r) => [r.channel, r.at - start, r.retryAfterSec])).toEqual([
        ['C_A', 0, 1],
        ['C_A', 500, 1],
      ]);
    },
  },
];

const LIFETIMES: Fact[] = [
  {
    fact: 'response_url: 5 uses; the 6th is refused 404 used_url',
    rules: { responseUrlLifetime: true },
    async check({ slack }) {
      const url = slack.responseUrl('cmd-1');
      const uses = [];
      for (let i = 0; i < 6; i++) uses.push(await respond(url));
      expect(uses.map((use) => use.status)).toEqual([200, 200, 200, 200, 200, 404]);
      expect(uses[5]?.json).toEqual({ ok: false, error: 'used_url' });
      expect(slack.traffic().methods.response_url).toMatchObject({ calls: 6, ok: 5, expired: 1 });
    },
  },
  {
    fact: 'response_url: 30 minutes from the interaction, then refused 404 expired_url, used or not',
    rules: { responseUrlLifetime: true },
    async check({ slack, clock }) {
      const used = slack.responseUrl('cmd-used');
      const unused = slack.responseUrl('cmd-unused');
      expect((await respond(used)).status).toBe(200);
      clock.tick(30 * MINUTE);
      expect((await respond(used)).status).toBe(200);
      clock.tick(1);
      expect(await respond(used)).toMatchObject({ status: 404, json: { ok: false, error: 'expired_url' } });
      expect((await respond(unused)).json.error).toBe('expired_url');
    },
  },
  {
    fact: 'trigger_id: usable once — a second views.open or views.push answers exchanged_trigger_id',
    rules: { triggerIdLifetime: true },
    async check({ slack }) {
      const trigger = slack.triggerId();
      expect((await api(slack, 'views.open', { trigger_id: trigger, view: MODAL })).json.ok).toBe(true);
      expect((await api(slack, 'views.open', { trigger_id: trigger, view: MODAL })).json).toEqual({
        ok: false,
        error: 'exchanged_trigger_id',
      });
      expect((await api(slack, 'views.push', { trigger_id: trigger, view: MODAL })).json.error).toBe(
        'exchanged_trigger_id',
      );
    },
  },
  {
    fact: 'trigger_id: within 3 s of the interaction, then views.open answers expired_trigger_id',
    rules: { triggerIdLifetime: true },
    async check({ slack, clock }) {
      const late = blockActions({ user: 'U_ADA', actions: [{ action_id: 'open' }] });
      const onTime = blockActions({ user: 'U_ADA', actions: [{ action_id: 'open' }] });
      slack.issue(late);
      slack.issue(onTime);
      clock.tick(3_000);
      expect((await api(slack, 'views.open', { trigger_id: onTime.trigger_id, view: MODAL })).json.ok).toBe(
        true,
      );
      clock.tick(1);
      expect((await api(slack, 'views.open', { trigger_id: late.trigger_id, view: MODAL })).json.error).toBe(
        'expired_trigger_id',
      );
      expect(slack.traffic().refusals).toEqual([
        expect.objectContaining({
          method: 'views.open',
          by: 'triggerIdLifetime',
          error: 'expired_trigger_id',
        }),
      ]);
    },
  },
  {
    fact: 'a trigger_id or response_url never issued to the stand-in is timed from its first use',
    rules: { triggerIdLifetime: true, responseUrlLifetime: true },
    async check({ slack, clock }) {
      clock.tick(10 * MINUTE);
      expect((await api(slack, 'views.open', { trigger_id: '1.2.unknown', view: MODAL })).json.ok).toBe(true);
      expect((await api(slack, 'views.open', { trigger_id: '1.2.unknown', view: MODAL })).json.error).toBe(
        'exchanged_trigger_id',
      );
      expect((await respond(`${slack.origin}/response/never-minted`)).status).toBe(200);
    },
  },
  {
    fact: 'workflow step token (xwfp-…): dies 15 minutes after issue; calls with it answer token_revoked',
    rules: { workflowTokenLifetime: true },
    async check({ slack, clock }) {
      const event = functionExecuted({ callbackId: 'wait_resolved', title: 'Wait', inputs: {} });
      slack.issue(eventEnvelope(event));
      const token = event.bot_access_token;
      clock.tick(15 * MINUTE);
      expect((await api(slack, 'chat.postMessage', { channel: 'C_GENERAL', text: 'x' }, token)).json.ok).toBe(
        true,
      );
      clock.tick(1);
      const late = await api(
        slack,
        'functions.completeSuccess',
        { function_execution_id: event.function_execution_id, outputs: {} },
        token,
      );
      expect(late).toEqual({ status: 200, retryAfter: null, json: { ok: false, error: 'token_revoked' } });
      // The app's own bot token is not a step's: it lives on.
      expect((await api(slack, 'chat.postMessage', { channel: 'C_GENERAL', text: 'x' })).json.ok).toBe(true);
    },
  },
  {
    fact: 'workflow step token: dies when its step completes; a step completes once (execution_not_in_running_state)',
    rules: { workflowTokenLifetime: true },
    async check({ slack }) {
      const event = functionExecuted({ callbackId: 'create_post', title: 'Create', inputs: {} });
      slack.issue(eventEnvelope(event));
      const execution = { function_execution_id: event.function_execution_id };
      const done = await api(
        slack,
        'functions.completeSuccess',
        { ...execution, outputs: {} },
        event.bot_access_token,
      );
      expect(done.json.ok).toBe(true);
      const after = await api(
        slack,
        'chat.postMessage',
        { channel: 'C_GENERAL', text: 'x' },
        event.bot_access_token,
      );
      expect(after.json.error).toBe('token_revoked');
      const again = await api(slack, 'functions.completeError', { ...execution, error: 'late' });
      expect(again.json.error).toBe('execution_not_in_running_state');
    },
  },
];

const ORGANISATIONS: Fact[] = [
  {
    fact: 'org-wide install: oauth.v2.access answers team null, enterprise, is_enterprise_install true, a W… bot user',
    rules: 'off',
    async check({ slack }) {
      const answer = await api(slack, 'oauth.v2.access', { code: ORG_INSTALLATION.code }, '');
      expect(answer.json).toEqual({
        ok: true,
        app_id: 'A_LOCAL',
        authed_user: { id: ORG_INSTALLATION.authedUserId },
        scope: ORG_INSTALLATION.scope,
        token_type: 'bot',
        access_token: ORG_INSTALLATION.accessToken,
        bot_user_id: 'W_BOT_ORG',
        team: null,
        enterprise: { id: GRID_ORG.id, name: GRID_ORG.name },
        is_enterprise_install: true,
      });
    },
  },
  {
    fact: 'the org-wide app is only in the workspaces an org admin added it to; team_id names the workspace',
    rules: 'off',
    async check({ slack }) {
      const token = await installOrg(slack);
      expect((await api(slack, 'auth.test', {}, token)).json).toMatchObject({
        team_id: GRID_ORG.id,
        enterprise_id: GRID_ORG.id,
        user_id: 'W_BOT_ORG',
        is_enterprise_install: true,
      });
      expect((await api(slack, 'auth.teams.list', {}, token)).json.teams).toEqual([
        { id: 'T_ORG_A', name: 'Org Corp A' },
      ]);
      const inB = () =>
        api(slack, 'chat.postMessage', { channel: 'C_B', text: 'x', team_id: 'T_ORG_B' }, token);
      expect((await inB()).json.error).toBe('team_access_not_granted');
      slack.grantOrgWorkspace(GRID_ORG.id, 'T_ORG_B');
      expect((await inB()).json).toMatchObject({ ok: true, message: { team: 'T_ORG_B' } });
    },
  },
  {
    fact: 'Grid people have W… ids unique across the org and an enterprise_user block',
    rules: 'off',
    options: { users: gridUsers(), enterprise: { ...GRID_ORG, orgWide: true } },
    async check({ slack }) {
      expect((await api(slack, 'auth.test')).json).toMatchObject({
        team_id: 'E_ORG',
        is_enterprise_install: true,
      });
      const ada = await api(slack, 'users.lookupByEmail', { email: 'ada@example.com' });
      expect(ada.json.user).toMatchObject({
        id: 'W_ADA',
        team_id: 'T_ORG_A',
        enterprise_user: { enterprise_id: 'E_ORG', teams: ['T_ORG_A', 'T_ORG_B'] },
      });
    },
  },
  {
    fact: 'Slack Connect: a person of another organisation has their own team_id, and users.lookupByEmail does not find them',
    rules: 'off',
    options: {
      users: [...defaultUsers(), partnerUser()],
      channels: [{ id: 'C_SHARED', name: 'shared', is_private: false, is_member: true, is_ext_shared: true }],
    },
    async check({ slack }) {
      const info = await api(slack, 'users.info', { user: CONNECT_PARTNER.userId });
      expect(info.json.user).toMatchObject({ id: 'U_PARTNER', team_id: 'T_PARTNER' });
      expect((await api(slack, 'users.lookupByEmail', { email: CONNECT_PARTNER.email })).json.error).toBe(
        'users_not_found',
      );
      expect((await api(slack, 'users.lookupByEmail', { email: 'ada@example.com' })).json.ok).toBe(true);
      expect((await api(slack, 'conversations.info', { channel: 'C_SHARED' })).json.channel).toMatchObject({
        is_shared: true,
        is_ext_shared: true,
        shared_team_ids: ['T_LOCAL', 'T_PARTNER'],
      });
    },
  },
];

describe.each([
  ['Rate limits', RATE_LIMITS],
  ['Lifetimes', LIFETIMES],
  ['Identities across organisations', ORGANISATIONS],
])('SLACK-FACTS.md — %s', (_section, facts) => {
  it.each(facts.map((fact) => [fact.fact, fact] as const))('%s', async (_name, fact) => {
    const clock = manualClock();
    const slack = await startSlackStandIn({ now: clock.now, ...fact.options });
    try {
      expect(slack.rules).toEqual(KIND_RULES);
      slack.setRules(fact.rules);
      await fact.check({ slack, clock });
    } finally {
      await slack.close();
    }
  });
});
