/**
 * The slash command listener, through signed requests into the real bot (web role, no worker):
 * the HTTP ack, the job it enqueued (name, data, id from the trigger_id), the Slack calls made.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { slashCommandBody } from '../../../../src/sandbox/slack/sign.ts';
import { ADA, type Harness, SLACK_CHANNEL, TEAM } from '../../../support/harness.ts';
import { postToBolt } from '../../../support/slack-client.ts';
import { type AckBody, expectNothingQueued, jobIdOf, onlyJob, shownText, useWebHarness } from '../support.ts';

let h: Harness;
useWebHarness((started) => {
  h = started;
});

const trigger = () => `trig-${randomBytes(6).toString('hex')}`;

/** A well-formed `/collab resolve P_1` as Slack signs and sends it, with a fresh trigger. */
const resolveCommandBody = () =>
  slashCommandBody({
    command: '/collab',
    text: 'resolve P_1',
    user_id: ADA,
    channel_id: SLACK_CHANNEL,
    team_id: TEAM,
    response_url: h.slack.responseUrl(),
    trigger_id: trigger(),
  });

/** Runs a command; answers the ack's JSON body, after checking it is an ephemeral 200. */
async function run(text: string, triggerId = trigger()): Promise<{ ack: AckBody; triggerId: string }> {
  const response = await h.command(text, { triggerId });
  expect(response.status).toBe(200);
  const ack = response.json<AckBody>();
  expect(ack.response_type).toBe('ephemeral');
  return { ack, triggerId };
}

describe('subcommands that enqueue one operation', () => {
  const cases: Array<{ text: string; operation: string; data: Record<string, unknown>; note: string }> = [
    {
      text: 'post #engineering Release notes | Ship it on *Friday* &amp; celebrate',
      operation: 'createPost',
      data: {
        channel: { name: 'engineering' },
        title: 'Release notes',
        content: 'Ship it on *Friday* & celebrate',
      },
      note: 'Creating the post',
    },
    {
      // "Invoice \u202Efdp.exe" would read "Invoice exe.pdf": overrides and controls never travel.
      text: 'post #eng Invoice \u202Efdp.exe\u202C | Pay \u0007now\u2066',
      operation: 'createPost',
      data: { channel: { name: 'eng' }, title: 'Invoice fdp.exe', content: 'Pay now' },
      note: 'Creating the post',
    },
    {
      text: 'post Just some content',
      operation: 'createPost',
      data: { content: 'Just some content' },
      note: 'Creating the post',
    },
    {
      text: 'resolve P_123 fixed in 1.2',
      operation: 'resolvePost',
      data: { post: { id: 'P_123' }, message: 'fixed in 1.2' },
      note: 'Resolving the post',
    },
    {
      text: 'resolve <https://collab.example/posts/9>',
      operation: 'resolvePost',
      data: { post: { url: 'https://collab.example/posts/9' } },
      note: 'Resolving the post',
    },
    {
      text: 'unresolve P_123',
      operation: 'unresolvePost',
      data: { post: { id: 'P_123' } },
      note: 'Reopening the post',
    },
    {
      text: 'reopen P_123',
      operation: 'unresolvePost',
      data: { post: { id: 'P_123' } },
      note: 'Reopening the post',
    },
    {
      text: 'reply P_123 parent:C_9 I agree',
      operation: 'createComment',
      data: { post: { id: 'P_123' }, parentId: 'C_9', text: 'I agree' },
      note: 'Adding your comment',
    },
    {
      text: 'dm <@U0GRACE|grace> <@U0ALAN> lunch?',
      operation: 'sendDm',
      data: { slackUserIds: ['U0GRACE', 'U0ALAN'], text: 'lunch?' },
      note: 'Sending your message',
    },
    {
      text: 'reply P_123 \u202Eok\u001B',
      operation: 'createComment',
      data: { post: { id: 'P_123' }, text: 'ok' },
      note: 'Adding your comment',
    },
    {
      text: 'resolve P_123 done \u202Eyes',
      operation: 'resolvePost',
      data: { post: { id: 'P_123' }, message: 'done yes' },
      note: 'Resolving the post',
    },
    {
      text: 'dm TH_1 see you there',
      operation: 'sendDm',
      data: { threadId: 'TH_1', text: 'see you there' },
      note: 'Sending your message',
    },
    {
      text: 'posts #design unresolved',
      operation: 'listPosts',
      data: { channel: { name: 'design' }, unresolvedOnly: true },
      note: 'Looking up posts',
    },
    { text: 'posts', operation: 'listPosts', data: { unresolvedOnly: false }, note: 'Looking up posts' },
    { text: 'channels eng', operation: 'listChannels', data: { name: 'eng' }, note: 'Looking up channels' },
    {
      text: 'members ada role:admin,guest',
      operation: 'listMembers',
      data: { search: 'ada', roles: ['admin', 'guest'] },
      note: 'Looking up members',
    },
    {
      text: 'thread TH_1',
      operation: 'listMessages',
      data: { threadId: 'TH_1' },
      note: 'Fetching the thread',
    },
    {
      text: 'link #engineering with replies',
      operation: 'linkChannel',
      data: { channel: { name: 'engineering' }, bridgeReplies: true },
      note: 'Linking this channel',
    },
    { text: 'unlink', operation: 'unlinkChannel', data: {}, note: 'Unlinking this channel' },
  ];

  it.each(cases)('$text → $operation', async ({ text, operation, data, note }) => {
    const before = Date.now();
    const { ack, triggerId } = await run(text);
    expect(ack.text).toContain(note);

    const job = await onlyJob(h);
    expect(job.name).toBe(operation);
    expect(job.id).toBe(await jobIdOf(h, `cmd:${triggerId}`));
    const { origin, ...rest } = job.data as { origin: Record<string, unknown> };
    expect(rest).toEqual(data);
    expect(origin).toEqual({
      teamId: TEAM,
      userId: ADA,
      slackChannel: SLACK_CHANNEL,
      responseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/response\//),
      receivedAt: expect.any(Number),
      source: 'command',
    });
    expect(origin.receivedAt as number).toBeGreaterThanOrEqual(before);
  });

  it('a repeated trigger_id (Slack resending the same command) enqueues once and says so', async () => {
    const triggerId = trigger();
    const first = await run('resolve P_1', triggerId);
    const second = await run('resolve P_1', triggerId);
    expect(first.ack.text).toContain('Resolving the post');
    expect(second.ack.text).toBe('Already on it.');
    expect((await onlyJob(h)).name).toBe('resolvePost');
  });
});

describe('answered in place, nothing enqueued', () => {
  it.each(['', 'help', '?'])('%j shows the help', async (text) => {
    const { ack } = await run(text);
    expect(ack.text).toContain('How to use /collab');
    expect(ack.blocks?.[0]?.type).toBe('header');
    await expectNothingQueued(h);
  });

  it('an unknown subcommand is explained, with a guess', async () => {
    const { ack } = await run('resolv P_1');
    expect(ack.text).toContain("I don't know `resolv`");
    expect(ack.text).toContain('/collab resolve');
    await expectNothingQueued(h);
  });

  it.each([
    ['resolve', 'Name the post to resolve', '/collab resolve <post> [message]'],
    ['reply P_1', 'Write the comment after the post', '/collab reply <post>'],
    ['dm @grace hello', 'is not a Slack mention', '/collab dm @someone'],
    ['link engineering', 'Name the collaboration channel to link', '/collab link #channel'],
    ['thread', 'Name the thread', '/collab thread <thread>'],
    ['unlink now', '`unlink` takes nothing', '/collab unlink'],
    ['members role:boss', 'Roles are', '/collab members'],
    [
      `post ${'t'.repeat(4000)} | body`,
      'A title holds at most 250 characters; this one has 4,000',
      '/collab post',
    ],
  ])('%j is refused with its usage', async (text, error, usage) => {
    const { ack } = await run(text);
    expect(ack.text).toContain(':warning:');
    expect(ack.text).toContain(error);
    expect(shownText(ack)).toContain(usage.replace(/</g, '&lt;').replace(/>/g, '&gt;'));
    await expectNothingQueued(h);
  });

  it('oversize text is refused', async () => {
    const { ack } = await run(`post ${'x'.repeat(40_001)}`);
    expect(ack.text).toContain('the limit is 40,000');
    await expectNothingQueued(h);
  });

  it('a payload missing the fields the bot needs is answered, not thrown', async () => {
    const form = new URLSearchParams(resolveCommandBody());
    form.delete('trigger_id');
    form.set('response_url', 'not a url');
    const response = await postToBolt(h.baseUrl, h.signingSecret, 'command', form.toString());
    expect(response.status).toBe(200);
    const ack = response.json<AckBody>();
    expect(ack.response_type).toBe('ephemeral');
    expect(ack.text).toContain('could not read');
    await expectNothingQueued(h);
  });

  it('job data the queue refuses is told as such, not as a queue that is away', async () => {
    // The grammar takes any link as a post; a job's post url is at most 3,000 characters.
    const { ack } = await run(`resolve <https://collab.example/posts/${'p'.repeat(3000)}>`);
    expect(shownText(ack)).toContain('does not fit what I can send');
    expect(shownText(ack)).not.toContain("can't reach my job queue");
    await expectNothingQueued(h);
  });
});

describe('the post form', () => {
  it('`post` alone acks and opens the form, remembering where it came from', async () => {
    const triggerId = trigger();
    const response = await h.command('post', { triggerId });
    expect(response.status).toBe(200);
    expect(response.body).toBe('');
    const call = await h.slackCall((c) => c.method === 'views.open');
    expect(call.args.trigger_id).toBe(triggerId);
    const view = call.args.view as { callback_id: string; private_metadata: string };
    expect(view.callback_id).toBe('post_create');
    expect(JSON.parse(view.private_metadata)).toEqual({
      slackChannel: SLACK_CHANNEL,
      responseUrl: expect.stringContaining('/response/'),
      responseUrlAt: expect.any(Number),
    });
    await expectNothingQueued(h);
  });

  it('a linked Slack channel preselects its collaboration channel', async () => {
    await h.bot.store.links.set(TEAM, 'C_LINKED', {
      channelId: 'CH_ENG',
      channelName: 'engineering',
      bridgeReplies: false,
      linkedBy: ADA,
      linkedAt: new Date().toISOString(),
    });
    await h.command('post', { channel: 'C_LINKED' });
    const call = await h.slackCall((c) => c.method === 'views.open');
    const view = call.args.view as {
      blocks: Array<{ block_id?: string; element?: Record<string, unknown> }>;
    };
    const picker = view.blocks.find((b) => b.block_id === 'channel');
    expect(picker?.element?.initial_option).toMatchObject({ text: { text: '#engineering' } });
  });

  it('when views.open fails, the person is told through the response url', async () => {
    const response = await h.command('post', { triggerId: 'expired' });
    expect(response.status).toBe(200);
    const told = await h.slackCall((c) => c.method === 'response_url');
    expect(told.args.response_type).toBe('ephemeral');
    expect(String(told.args.text)).toContain('could not open the post form');
    await expectNothingQueued(h);
  });
});

describe('signatures', () => {
  const body = resolveCommandBody;

  it('a bad signature is refused with 401 and nothing is enqueued', async () => {
    const response = await postToBolt(h.baseUrl, 'not-the-secret', 'command', body());
    expect(response.status).toBe(401);
    await expectNothingQueued(h);
  });

  it('a stale timestamp is refused with 401 and nothing is enqueued', async () => {
    const raw = body();
    const { createHmac } = await import('node:crypto');
    const stale = Math.floor(Date.now() / 1000) - 10 * 60;
    const signature = `v0=${createHmac('sha256', h.signingSecret).update(`v0:${stale}:${raw}`).digest('hex')}`;
    const response = await postToBolt(h.baseUrl, h.signingSecret, 'command', raw, {
      'x-slack-signature': signature,
      'x-slack-request-timestamp': String(stale),
    });
    expect(response.status).toBe(401);
    await expectNothingQueued(h);
  });
});
