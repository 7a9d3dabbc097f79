/**
 * Cross-workspace isolation, as a property of every listener. Two workspaces are installed —
 * T_OTHER through the real OAuth round trip, T_LOCAL through the installation store — and each
 * is connected to an organisation on a service host of its own, has a linked channel and a post
 * card. Then every listener (commands, shortcuts, actions, views, events, options, functions) is
 * walked with requests that Bolt authorises for T_OTHER and that carry T_LOCAL's id in every
 * other team field of the body (`team.id` or `view.app_installed_team_id`, `user.team_id`,
 * `view.team_id`, `message.team`, an event's `team_id`, `context_team_id`, `event.team`, …).
 *
 * Nothing of T_LOCAL may be read, changed or sent: Redis (a server of the test's own, watched
 * with MONITOR) sees no command naming T_LOCAL, T_LOCAL's bot token makes no Slack call, and
 * T_LOCAL's service host receives no request. Every registered listener id has a case here: a
 * listener added without one fails the suite.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import type { App } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP_IDS } from '../../src/operations/workflowSteps.ts';
import { ACTIONS, INPUTS, SHORTCUTS, VIEWS } from '../../src/render/ids.ts';
import { type Emulator, startEmulator } from '../../src/sandbox/emulator/index.ts';
import { findOnPath, type PrivateRedis, startPrivateRedis } from '../../src/sandbox/redis.ts';
import {
  appHomeOpened,
  appUninstalled,
  blockActions,
  blockSuggestion,
  eventEnvelope,
  functionExecuted,
  globalShortcut,
  interactionBody,
  linkShared,
  messageEvent,
  messageShortcut,
  OTHER_INSTALLATION,
  slashCommandBody,
  tokensRevoked,
  viewSubmission,
} from '../../src/sandbox/slack/index.ts';
import type { ListenerDeps } from '../../src/slack/listeners/deps.ts';
import { registerListeners } from '../../src/slack/listeners/index.ts';
import { createCipher } from '../../src/store/crypto.ts';
import { installationStore } from '../../src/store/installations.ts';
import {
  ADA,
  LOCAL_TEAM,
  LOCAL_TOKEN,
  type MultiHarness,
  OTHER_TEAM,
  startMultiHarness,
} from '../support/multi-harness.ts';
import { postToBolt } from '../support/slack-client.ts';

/** The workspace Bolt authorises in the walk, and the one named everywhere else. */
const AUTHORISED = OTHER_TEAM;
const VICTIM = LOCAL_TEAM;
const CHANNEL = 'C_GENERAL';

let redisServer: PrivateRedis;
let h: MultiHarness;
let victimService: Emulator;
let card: { ts: string; value: string; postId: string };

/* ------------------------------------------------------------ forging */

/** Keys whose string value names a team. */
const TEAM_KEYS = new Set([
  'team',
  'team_id',
  'user_team',
  'source_team',
  'context_team_id',
  'app_installed_team_id',
]);

/** Every team id of `value` (a key of TEAM_KEYS, or the `id` of a `team` object) made VICTIM's. */
function victimEverywhere(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(victimEverywhere);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (TEAM_KEYS.has(key) && typeof field === 'string') out[key] = VICTIM;
    else if (key === 'team' && field !== null && typeof field === 'object')
      out[key] = { ...field, id: VICTIM };
    else out[key] = victimEverywhere(field);
  }
  return out;
}

/** An interaction for AUTHORISED (what Bolt authorises by) naming VICTIM in every other team field. */
function forgedInteraction(payload: object): string {
  const forged = victimEverywhere(payload) as Record<string, unknown> & {
    team: { id: string };
    view?: Record<string, unknown>;
    user: Record<string, unknown>;
    type: string;
  };
  if (forged.type === 'view_submission') {
    forged.view = { ...forged.view, app_installed_team_id: AUTHORISED };
  } else {
    forged.team = { ...forged.team, id: AUTHORISED };
  }
  forged.user = { ...forged.user, team_id: VICTIM };
  return interactionBody(forged);
}

/** An Events API body authorised for AUTHORISED (its authorizations) naming VICTIM everywhere else. */
function forgedEvent(event: { type: string }): string {
  const envelope = eventEnvelope(
    { ...event, team: VICTIM, user_team: VICTIM, source_team: VICTIM },
    { team_id: AUTHORISED, botUserId: OTHER_INSTALLATION.botUserId },
  );
  const forged = victimEverywhere(envelope) as Record<string, unknown>;
  forged.authorizations = [
    {
      enterprise_id: null,
      team_id: AUTHORISED,
      user_id: OTHER_INSTALLATION.botUserId,
      is_bot: true,
      is_enterprise_install: false,
    },
  ];
  return JSON.stringify(forged);
}

/* ------------------------------------------------------------ the walk */

type Case = { id: string; kind: 'command' | 'interaction' | 'event'; body: () => string };

let counter = 0;
const responseUrl = () => h.slack.responseUrl(`iso-${++counter}`);

function command(text: string): Case {
  return {
    id: 'command:/collab',
    kind: 'command',
    body: () =>
      slashCommandBody({
        command: '/collab',
        text,
        user_id: ADA,
        channel_id: CHANNEL,
        team_id: AUTHORISED,
        response_url: responseUrl(),
        trigger_id: `iso-trigger-${++counter}`,
      }),
  };
}

const interaction = (id: string, payload: () => object): Case => ({
  id,
  kind: 'interaction',
  body: () => forgedInteraction(payload()),
});
const event = (id: string, payload: () => { type: string }): Case => ({
  id,
  kind: 'event',
  body: () => forgedEvent(payload()),
});

const cardMessage = () => ({ ts: card.ts, text: 'Isolation', user: OTHER_INSTALLATION.botUserId });
const cardClick = (action_id: string) => () =>
  blockActions({
    user: ADA,
    team_id: AUTHORISED,
    channel: CHANNEL,
    message: cardMessage(),
    response_url: responseUrl(),
    actions: [{ action_id, value: card.value }],
  });
const homeClick = (action_id: string, value?: string) => () =>
  blockActions({
    user: ADA,
    team_id: AUTHORISED,
    actions: [{ action_id, ...(value ? { value } : {}) }],
    view: { id: 'V_HOME', callback_id: '', type: 'home' },
  });
const shortcutOn = (callback_id: string) => () =>
  messageShortcut({
    callback_id,
    user: ADA,
    team_id: AUTHORISED,
    channel: CHANNEL,
    message: cardMessage(),
    response_url: responseUrl(),
  });
const submit =
  (callback_id: string, metadata: object, values: Record<string, Record<string, unknown>>) => () =>
    viewSubmission({
      user: ADA,
      team_id: AUTHORISED,
      view: {
        id: `V_ISO_${++counter}`,
        callback_id,
        private_metadata: JSON.stringify(metadata),
        state: {
          values: Object.fromEntries(
            Object.entries(values).map(([block, value]) => [
              block,
              Object.fromEntries(Object.entries(value).map(([action, v]) => [action, v])),
            ]),
          ),
        },
      },
    });
const input = (which: { block: string; action: string }, value: string) => ({
  [which.block]: { [which.action]: { type: 'plain_text_input', value } },
});

function cases(): Case[] {
  const where = { slackChannel: CHANNEL };
  return [
    command('help'),
    command('post'),
    command('post #engineering Isolation two | written in the authorised workspace'),
    command('channels'),
    command('posts'),
    command('link #engineering'),
    command(`reply ${card.postId} a comment`),
    interaction(`shortcut:${SHORTCUTS.createPostFromMessage}`, shortcutOn(SHORTCUTS.createPostFromMessage)),
    interaction(`shortcut:${SHORTCUTS.createPostFromThread}`, shortcutOn(SHORTCUTS.createPostFromThread)),
    interaction(`shortcut:${SHORTCUTS.commentOnPost}`, shortcutOn(SHORTCUTS.commentOnPost)),
    interaction(`shortcut:${SHORTCUTS.resolvePost}`, shortcutOn(SHORTCUTS.resolvePost)),
    interaction(`shortcut:${SHORTCUTS.newPost}`, () =>
      globalShortcut({ callback_id: SHORTCUTS.newPost, user: ADA, team_id: AUTHORISED }),
    ),
    interaction(`action:${ACTIONS.comment}`, cardClick(ACTIONS.comment)),
    interaction(`action:${ACTIONS.resolve}`, cardClick(ACTIONS.resolve)),
    interaction(`action:${ACTIONS.reopen}`, cardClick(ACTIONS.reopen)),
    interaction(`action:${ACTIONS.openPost}`, cardClick(ACTIONS.openPost)),
    interaction(`action:${ACTIONS.pageNext}`, () => ({
      ...cardClick(ACTIONS.pageNext)(),
      actions: [{ action_id: ACTIONS.pageNext, value: 'pg-none', type: 'button', block_id: 'b' }],
    })),
    interaction(`action:${ACTIONS.pagePrev}`, () => ({
      ...cardClick(ACTIONS.pagePrev)(),
      actions: [{ action_id: ACTIONS.pagePrev, value: 'pg-none', type: 'button', block_id: 'b' }],
    })),
    interaction(`action:${ACTIONS.connect}`, homeClick(ACTIONS.connect)),
    interaction(`action:${ACTIONS.homeNewPost}`, homeClick(ACTIONS.homeNewPost)),
    interaction(`action:${ACTIONS.homeHelp}`, homeClick(ACTIONS.homeHelp)),
    interaction(`action:${ACTIONS.homeNotify}`, homeClick(ACTIONS.homeNotify, 'on')),
    interaction(`options:${ACTIONS.channelPicker}`, () =>
      blockSuggestion({
        action_id: ACTIONS.channelPicker,
        block_id: INPUTS.channel.block,
        value: 'eng',
        user: ADA,
        team_id: AUTHORISED,
        view: { id: 'V_POST', callback_id: VIEWS.createPost },
      }),
    ),
    interaction(
      `view:${VIEWS.createPost}`,
      submit(VIEWS.createPost, where, {
        ...input(INPUTS.content, 'From a form'),
        ...input(INPUTS.title, 'Form'),
      }),
    ),
    interaction(
      `view:${VIEWS.createComment}`,
      submit(VIEWS.createComment, { ...where, postId: card.postId }, input(INPUTS.comment, 'A comment')),
    ),
    interaction(
      `view:${VIEWS.resolvePost}`,
      submit(VIEWS.resolvePost, { ...where, postId: card.postId }, input(INPUTS.resolution, 'Done')),
    ),
    interaction(
      `view:${VIEWS.connect}`,
      submit(VIEWS.connect, {}, { ...input(INPUTS.baseUrl, h.emulator.url), ...input(INPUTS.apiKey, '') }),
    ),
    event('event:message', () =>
      messageEvent({ channel: CHANNEL, user: ADA, text: 'a reply under the card', thread_ts: card.ts }),
    ),
    event('event:app_home_opened', () => appHomeOpened({ user: ADA })),
    event('event:link_shared', () =>
      linkShared({ channel: CHANNEL, user: ADA, message_ts: card.ts, links: [`${h.emulator.url}/posts/x`] }),
    ),
    ...[
      'channel_archive',
      'group_archive',
      'channel_unarchive',
      'group_unarchive',
      'channel_deleted',
      'group_deleted',
    ].map((type) => event(`event:${type}`, () => ({ type, channel: 'C_GONE' }))),
    ...['member_left_channel', 'member_joined_channel'].map((type) =>
      event(`event:${type}`, () => ({
        type,
        user: OTHER_INSTALLATION.botUserId,
        channel: 'C_GONE',
        channel_type: 'C',
      })),
    ),
    ...STEP_IDS.map((callbackId) =>
      event(`function:${callbackId}`, () =>
        functionExecuted({
          callbackId,
          title: callbackId,
          inputs: { channel: 'engineering', content: 'x', post: card.postId },
        }),
      ),
    ),
    // Last: these change settings or take the workspace away.
    interaction(`action:${ACTIONS.disconnect}`, homeClick(ACTIONS.disconnect)),
    event('event:tokens_revoked', () => tokensRevoked({ bot: [OTHER_INSTALLATION.botUserId] })),
    event('event:app_uninstalled', () => appUninstalled()),
  ];
}

/** Every id a listener is registered for, as `kind:id`, read from the registration itself. */
function registeredIds(): string[] {
  const ids: string[] = [];
  const routed = (kind: string) => (_constraints: unknown, route: { ids?: readonly string[] }) => {
    for (const id of route.ids ?? []) ids.push(`${kind}:${id}`);
  };
  const app = {
    command: (name: string) => ids.push(`command:${name}`),
    shortcut: routed('shortcut'),
    action: routed('action'),
    view: routed('view'),
    event: routed('event'),
    options: (constraints: { action_id?: string }) => ids.push(`options:${constraints.action_id}`),
    function: (callbackId: string) => ids.push(`function:${callbackId}`),
    use: () => {},
  };
  registerListeners(app as unknown as App, { command: '/collab' } as ListenerDeps);
  return ids;
}

/**
 * Every command Redis runs from now on, as MONITOR prints it (one line each), on a plain socket:
 * what any client of the test's Redis reads or writes, with its keys and arguments.
 */
async function watchRedis(url: string): Promise<{ lines: string[]; stop(): void }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  const lines: string[] = [];
  let pending = '';
  let ready: () => void = () => {};
  const monitoring = new Promise<void>((resolve) => {
    ready = resolve;
  });
  socket.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let nl = pending.indexOf('\r\n'); nl >= 0; nl = pending.indexOf('\r\n')) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 2);
      if (line === '+OK') ready();
      else lines.push(line);
    }
  });
  socket.write('MONITOR\r\n');
  await monitoring;
  return { lines, stop: () => socket.destroy() };
}

/* ------------------------------------------------------------ setup */

async function setUpWorkspace(team: string, service: Emulator): Promise<void> {
  expect((await h.connect(team, service.apiKeys[0]!, { baseUrl: service.url })).body).toBe('');
  const linked = h.nextSettled('linkChannel');
  await h.command(team, 'link #engineering');
  expect((await linked).state).toBe('completed');
  const posted = h.nextSettled('createPost');
  await h.command(team, `post #engineering Isolation | a post of ${team}`);
  expect((await posted).state).toBe('completed');
}

/** Resolves once no job is waiting, delayed, prioritized or running, and their last writes are done. */
async function idle(): Promise<void> {
  const queue = h.bot.queue.queue;
  const busy = async () =>
    Object.values(await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized')).some((n) => n > 0);
  while (await busy()) {
    await new Promise<void>((resolve) => {
      const done = () => {
        h.queueEvents.off('completed', done);
        h.queueEvents.off('failed', done);
        h.queueEvents.off('delayed', done);
        resolve();
      };
      h.queueEvents.on('completed', done);
      h.queueEvents.on('failed', done);
      h.queueEvents.on('delayed', done);
      // A job that settled between the count and the subscription is seen by the next count.
      void busy().then((still) => !still && done());
    });
  }
  // What jobs leave to write a moment later (a person's recent operations) is written now.
  await h.bot.store.recent.flush();
}

beforeAll(async () => {
  const binary = findOnPath('redis-server');
  if (!binary) throw new Error('the isolation suite needs redis-server on PATH');
  redisServer = await startPrivateRedis(binary);
  h = await startMultiHarness({ redisUrl: redisServer.url });
  victimService = await startEmulator({});
  await h.install();
  await h.installLocal();
  await setUpWorkspace(AUTHORISED, h.emulator);
  await setUpWorkspace(VICTIM, victimService);
  const cardCall = await h.slack.waitFor(
    (c) =>
      c.method === 'chat.postMessage' &&
      c.token === OTHER_INSTALLATION.accessToken &&
      JSON.stringify(c.args).includes('Isolation'),
  );
  const blocks = cardCall.args.blocks as Array<{ type: string; elements?: Array<{ value?: string }> }>;
  const value = blocks.flatMap((b) => b.elements ?? []).find((e) => e.value !== undefined)?.value ?? '';
  card = { ts: String(cardCall.response.ts), value, postId: (JSON.parse(value) as { p: string }).p };
  await idle();
}, 60_000);

afterAll(async () => {
  await h?.close();
  await victimService?.close();
  await redisServer?.stop();
});

/* ------------------------------------------------------------ the property */

describe('cross-workspace isolation', () => {
  it('walks every registered listener', () => {
    const walked = new Set(cases().map((c) => c.id));
    expect(registeredIds().filter((id) => !walked.has(id))).toEqual([]);
  });

  it('reads, changes and sends nothing of the workspace named in the body when Bolt authorised another', async () => {
    const redis = await watchRedis(redisServer.url);
    const slackFrom = h.slack.calls.length;
    const victimFrom = victimService.received.length;
    const answers: Array<[string, number]> = [];
    try {
      for (const c of cases()) {
        const answer = await postToBolt(h.baseUrl, h.signingSecret, c.kind, c.body());
        answers.push([c.id, answer.status]);
      }
      await idle();
    } finally {
      redis.stop();
    }
    expect(answers.filter(([, status]) => status !== 200)).toEqual([]);
    // The walk did act for the authorised workspace …
    expect(redis.lines.some((line) => line.includes(AUTHORISED))).toBe(true);
    expect(h.slack.calls.slice(slackFrom).some((c) => c.token === OTHER_INSTALLATION.accessToken)).toBe(true);
    // … and nothing of the other one was read, changed or sent.
    const named = redis.lines.filter((line) => line.includes(VICTIM)).map((line) => line.slice(0, 160));
    expect(named).toEqual([]);
    expect(
      h.slack.calls
        .slice(slackFrom)
        .filter((c) => c.token === LOCAL_TOKEN)
        .map((c) => c.method),
    ).toEqual([]);
    expect(victimService.received.slice(victimFrom).map((r) => r.route)).toEqual([]);
  });

  it('lets an org-wide install act for a workspace of its org, never for one installed on its own', async () => {
    const installations = installationStore(
      h.redis,
      { prefix: h.prefix },
      createCipher({ encryptionKey: h.secrets.encryptionKey }),
    );
    await installations.storeInstallation({
      isEnterpriseInstall: true,
      enterprise: { id: 'E_ORG', name: 'Org' },
      team: undefined,
      user: { id: ADA, token: undefined, scopes: undefined },
      bot: { id: 'B_ORG', userId: 'U_BOT_ORG', token: 'xoxb-test-org', scopes: ['commands'] },
      tokenType: 'bot',
      appId: 'A_LOCAL',
      authVersion: 'v2',
    });
    const orgCommand = (team: string) => {
      const body = slashCommandBody({
        command: '/collab',
        text: 'channels',
        user_id: ADA,
        channel_id: CHANNEL,
        team_id: team,
        enterprise_id: 'E_ORG',
        response_url: responseUrl(),
        trigger_id: `iso-org-${++counter}`,
      }).replace('is_enterprise_install=false', 'is_enterprise_install=true');
      return postToBolt(h.baseUrl, h.signingSecret, 'command', body);
    };
    // T_LOCAL has an installation of its own: the org's install does not act for it.
    const refused = await orgCommand(VICTIM);
    expect(refused.json<{ text: string }>().text).toMatch(/could not read/);
    expect(await h.redis.exists(`${h.prefix}:t:${VICTIM}:enterprise`)).toBe(0);
    // A workspace of the org with no installation of its own is served, and bound to the org.
    const settled = h.nextSettled('listChannels');
    const served = await orgCommand('T_IN_ORG');
    expect(served.json<{ text: string }>().text).toMatch(/Looking up channels/);
    expect(((await settled).job.data as { origin: { teamId: string } }).origin.teamId).toBe('T_IN_ORG');
    expect(await h.redis.get(`${h.prefix}:t:T_IN_ORG:enterprise`)).toBe('E_ORG');
  });
});
