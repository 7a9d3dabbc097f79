/**
 * Buttons of post cards and lists, through signed block_actions payloads: what each enqueues
 * (keyed on the card's state, so a double click runs once), the forms they open, and the
 * answers to expired lists and malformed clicks.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseCardActionValue } from '../../../../src/render/postCard.ts';
import { blockActions, nextTs } from '../../../../src/sandbox/slack/index.ts';
import { ADA, type Harness, SLACK_CHANNEL, TEAM } from '../../../support/harness.ts';
import { expectNothingQueued, jobIdOf, onlyJob, queuedJobs, useWebHarness } from '../support.ts';

let h: Harness;
useWebHarness((started) => {
  h = started;
});

/** A card button's value as the card renders it: `{"p": post id, "v": card version}`. */
function cardValue(postId: string, version: string): string {
  const value = JSON.stringify({ p: postId, v: version });
  expect(parseCardActionValue(value)).toEqual({ postId, version });
  return value;
}

function click(
  actionId: string,
  value: string,
  options: { ts?: string; threadTs?: string; responseUrl?: string } = {},
) {
  const ts = options.ts ?? nextTs();
  return blockActions({
    user: ADA,
    channel: SLACK_CHANNEL,
    message: {
      ts,
      text: 'a post card',
      bot_id: 'B_LOCAL',
      ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
    },
    actions: [{ action_id: actionId, value }],
    response_url: options.responseUrl ?? h.slack.responseUrl(`btn-${randomBytes(4).toString('hex')}`),
  });
}

describe('Resolve and Reopen', () => {
  it.each([
    ['post_resolve', 'resolvePost'],
    ['post_reopen', 'unresolvePost'],
  ])('%s enqueues %s for the post and its card, keyed on the card state', async (actionId, operation) => {
    const ts = nextTs();
    const responseUrl = h.slack.responseUrl('card-1');
    const response = await h.interact(click(actionId, cardValue('P_1', 'v1'), { ts, responseUrl }));
    expect(response.status).toBe(200);
    expect(response.body).toBe('');

    const job = await onlyJob(h);
    expect(job.name).toBe(operation);
    expect(job.id).toBe(await jobIdOf(h, `btn:${SLACK_CHANNEL}:${ts}:${actionId}:v1`));
    expect(job.data).toEqual({
      origin: {
        teamId: TEAM,
        userId: ADA,
        slackChannel: SLACK_CHANNEL,
        responseUrl,
        receivedAt: expect.any(Number),
        source: 'button',
      },
      post: { id: 'P_1' },
      card: { slackChannel: SLACK_CHANNEL, ts },
    });
  });

  it('a double click on the same card state runs once, quietly', async () => {
    const payload = click('post_resolve', cardValue('P_2', 'v1'));
    const first = await h.interact(payload);
    const second = await h.interact(payload);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toBe('');
    expect((await onlyJob(h)).name).toBe('resolvePost');
    expect(h.slack.responseUrlCalls).toEqual([]);
  });

  it('once the card changed (new version), the same button runs again', async () => {
    const ts = nextTs();
    await h.interact(click('post_resolve', cardValue('P_3', 'v1'), { ts }));
    await h.interact(click('post_resolve', cardValue('P_3', 'v2'), { ts }));
    expect((await queuedJobs(h)).map((job) => job.name)).toEqual(['resolvePost', 'resolvePost']);
  });

  it('a card inside a Slack thread answers in that thread', async () => {
    const threadTs = nextTs();
    await h.interact(click('post_resolve', cardValue('P_4', 'v1'), { threadTs }));
    const job = await onlyJob(h);
    expect((job.data as { origin: { threadTs?: string } }).origin.threadTs).toBe(threadTs);
  });

  it.each([
    ['not JSON', 'resolve-me'],
    ['no post id', JSON.stringify({ v: 'v1' })],
    ['no version', JSON.stringify({ p: 'P_1' })],
  ])('a malformed value (%s) is explained and enqueues nothing', async (_what, value) => {
    const responseUrl = h.slack.responseUrl('bad-value');
    const response = await h.interact(click('post_resolve', value, { responseUrl }));
    expect(response.status).toBe(200);
    const told = await h.slackCall((c) => c.method === 'response_url');
    expect(told.path).toBe('/response/bad-value');
    expect(String(told.args.text)).toContain('could not read');
    expect(told.args.response_type).toBe('ephemeral');
    await expectNothingQueued(h);
  });

  it('a click with no message or channel is explained and enqueues nothing', async () => {
    const payload = {
      ...click('post_resolve', cardValue('P_1', 'v1')),
      container: { type: 'message' },
      channel: undefined,
      message: undefined,
    };
    const response = await h.interact(payload);
    expect(response.status).toBe(200);
    const told = await h.slackCall((c) => c.method === 'response_url');
    expect(String(told.args.text)).toContain('could not read');
    await expectNothingQueued(h);
  });
});

describe('Comment', () => {
  it('opens the comment form for the post, remembering the card', async () => {
    const ts = nextTs();
    const payload = click('post_comment', cardValue('P_5', 'v1'), { ts });
    const response = await h.interact(payload);
    expect(response.status).toBe(200);
    const call = await h.slackCall((c) => c.method === 'views.open');
    expect(call.args.trigger_id).toBe(payload.trigger_id);
    const view = call.args.view as { callback_id: string; private_metadata: string };
    expect(view.callback_id).toBe('comment_create');
    expect(JSON.parse(view.private_metadata)).toMatchObject({
      slackChannel: SLACK_CHANNEL,
      postId: 'P_5',
      card: { slackChannel: SLACK_CHANNEL, ts },
      responseUrl: payload.response_url,
    });
    await expectNothingQueued(h);
  });

  it('tells the person when the form cannot open', async () => {
    const payload = { ...click('post_comment', cardValue('P_5', 'v1')), trigger_id: 'expired' };
    await h.interact(payload);
    const told = await h.slackCall((c) => c.method === 'response_url');
    expect(String(told.args.text)).toContain('could not open the comment form');
  });
});

describe('list paging', () => {
  it.each([
    ['list_next', 'next'],
    ['list_prev', 'prev'],
  ] as const)('%s runs the list again from its cursor, replacing the list', async (actionId, direction) => {
    const pageId = await h.bot.store.pages.save(TEAM, {
      operation: 'listPosts',
      query: { channel: { name: 'design' }, unresolvedOnly: true },
      cursor: `cursor-${direction}`,
      direction,
    });
    const ts = nextTs();
    const responseUrl = h.slack.responseUrl('list-1');
    const response = await h.interact(click(actionId, pageId, { ts, responseUrl }));
    expect(response.status).toBe(200);

    const job = await onlyJob(h);
    expect(job.name).toBe('listPosts');
    expect(job.id).toBe(await jobIdOf(h, `btn:${SLACK_CHANNEL}:${ts}:${actionId}:${pageId}`));
    expect(job.data).toEqual({
      origin: expect.objectContaining({ source: 'button', responseUrl, slackChannel: SLACK_CHANNEL }),
      channel: { name: 'design' },
      unresolvedOnly: true,
      cursor: `cursor-${direction}`,
      direction,
      replace: true,
    });
  });

  it('a double click on Next fetches the page once', async () => {
    const pageId = await h.bot.store.pages.save(TEAM, {
      operation: 'listChannels',
      query: {},
      cursor: 'c2',
      direction: 'next',
    });
    const payload = click('list_next', pageId);
    await h.interact(payload);
    await h.interact(payload);
    expect((await onlyJob(h)).name).toBe('listChannels');
  });

  it('an expired list says so and enqueues nothing', async () => {
    const responseUrl = h.slack.responseUrl('old-list');
    const response = await h.interact(click('list_next', 'gone1234', { responseUrl }));
    expect(response.status).toBe(200);
    const told = await h.slackCall((c) => c.method === 'response_url');
    expect(told.args.response_type).toBe('ephemeral');
    expect(String(told.args.text)).toContain('This list has expired; run the command again.');
    await expectNothingQueued(h);
  });
});

describe('Open', () => {
  it('is only acked', async () => {
    const response = await h.interact(click('post_open', 'P_1'));
    expect(response.status).toBe(200);
    expect(response.body).toBe('');
    expect(h.slack.calls).toEqual([]);
    expect(h.slack.responseUrlCalls).toEqual([]);
    await expectNothingQueued(h);
  });
});
