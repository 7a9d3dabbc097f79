import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ORG_SLUG } from '../../../src/sandbox/emulator/index.ts';
import { type Harness, startHarness } from '../../support/harness.ts';
import {
  appPostsWith,
  blockText,
  callsOf,
  channelId,
  originOf,
  responses,
  responseTexts,
  run,
  unique,
} from '../helpers.ts';

describe('createPost', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  it('creates the post by channel name, attributed, posts its card and tells where it went', async () => {
    const origin = originOf(h);
    const title = unique('Release notes');
    const { state } = await run(h, 'createPost', {
      origin,
      channel: { name: '#Engineering' },
      title,
      content: 'Body of the *post*',
    });
    expect(state).toBe('completed');

    const posts = appPostsWith(h, 'Body of the *post*').filter((p) => p.title === title);
    expect(posts).toHaveLength(1);
    const post = posts[0]!;
    expect(post.channel_id).toBe(channelId(h, 'engineering'));
    expect(post.content_markdown).toBe('Body of the *post*\n\n_Posted from Slack by Ada Lovelace_');

    const card = callsOf(h, 'chat.postMessage').find((c) => blockText(c.args.blocks).includes(title));
    expect(card?.args.channel).toBe(origin.slackChannel);
    expect(await h.bot.store.cards.cardsOfPost(origin.teamId, post.id)).toEqual([
      { slackChannel: origin.slackChannel, ts: card?.response.ts },
    ]);
    expect(
      await h.bot.store.urls.postOfUrl(origin.teamId, `${h.emulator.url}/${ORG_SLUG}/posts/${post.id}`),
    ).toBe(post.id);

    const told = responseTexts(h, origin);
    expect(told).toHaveLength(1);
    expect(told[0]).toContain('Posted to #engineering:');
    expect(told[0]).toContain(`<${h.emulator.url}/${ORG_SLUG}/posts/${post.id}|${title}>`);
    const answer = h.slack.responseUrlCalls.find((c) => c.path === `/response/${origin.responseId}`);
    expect(answer?.args.replace_original).toBe(true);
  });

  it('omits the title when none is given, and uses a channel id as it is', async () => {
    const text = unique('untitled');
    const { state } = await run(h, 'createPost', {
      origin: originOf(h, { source: 'modal' }),
      channel: { id: channelId(h, 'design') },
      content: text,
    });
    expect(state).toBe('completed');
    const create = h.emulator.received.find(
      (r) =>
        r.route === 'POST /v2/posts' &&
        String((r.body as { content_markdown: string }).content_markdown).startsWith(text),
    );
    expect(create?.body).toEqual({
      content_markdown: `${text}\n\n_Posted from Slack by Ada Lovelace_`,
      channel_id: channelId(h, 'design'),
    });
  });

  it('goes to the linked channel when none is named', async () => {
    const slackChannel = 'C_LINKED_POST';
    await h.bot.store.links.set('T_LOCAL', slackChannel, {
      channelId: channelId(h, 'support'),
      channelName: 'support',
      bridgeReplies: false,
      linkedBy: 'U_ADA',
      linkedAt: new Date().toISOString(),
    });
    const text = unique('to the linked channel');
    const origin = originOf(h, { slackChannel });
    expect((await run(h, 'createPost', { origin, content: text })).state).toBe('completed');
    expect(appPostsWith(h, text).map((p) => p.channel_id)).toEqual([channelId(h, 'support')]);
    expect(responseTexts(h, origin)[0]).toContain('Posted to #support:');
  });

  it('refuses when no channel is named and the Slack channel is not linked', async () => {
    const text = unique('nowhere');
    const origin = originOf(h, { slackChannel: 'C_NOT_LINKED' });
    expect((await run(h, 'createPost', { origin, content: text })).state).toBe('failed');
    expect(appPostsWith(h, text)).toHaveLength(0);
    expect(responseTexts(h, origin)).toEqual([
      ':warning: This Slack channel is not linked to a collaboration channel. Name one — `/collab post #engineering …` — or link this channel: `/collab link #engineering`.',
    ]);
  });

  it('names an unknown channel and suggests /collab channels', async () => {
    const origin = originOf(h);
    expect((await run(h, 'createPost', { origin, channel: { name: 'engineer' }, content: 'x' })).state).toBe(
      'failed',
    );
    expect(responseTexts(h, origin)[0]).toMatch(/no channel named #engineer\b.*`\/collab channels`/);
  });

  it('not_in_channel: joins the Slack channel, then posts the card', async () => {
    const slackChannel = 'C_NOT_JOINED';
    const title = unique('join first');
    h.slack.failNext('chat.postMessage', 'not_in_channel');
    const origin = originOf(h, { slackChannel });
    expect(
      (await run(h, 'createPost', { origin, channel: { name: 'engineering' }, title, content: 'c' })).state,
    ).toBe('completed');
    const inChannel = h.slack.calls.filter(
      (c) => c.args.channel === slackChannel && ['chat.postMessage', 'conversations.join'].includes(c.method),
    );
    expect(inChannel.map((c) => [c.method, c.response.ok])).toEqual([
      ['chat.postMessage', false],
      ['conversations.join', true],
      ['chat.postMessage', true],
    ]);
    expect(blockText(inChannel[2]?.args.blocks)).toContain(title);
  });

  it('channel_not_found: the card goes to the person alone, with a hint to invite the bot', async () => {
    const slackChannel = 'C_GONE';
    const title = unique('no channel');
    h.slack.failNext('chat.postMessage', 'channel_not_found');
    const origin = originOf(h, { slackChannel });
    expect(
      (await run(h, 'createPost', { origin, channel: { name: 'engineering' }, title, content: 'c' })).state,
    ).toBe('completed');
    const posted = h.slack.calls.filter(
      (c) => c.method === 'chat.postMessage' && c.args.channel === slackChannel,
    );
    expect(posted.map((c) => c.response.ok)).toEqual([false]);
    const said = h.slack.responseUrlCalls.filter((c) => c.path === `/response/${origin.responseId}`);
    expect(said).toHaveLength(2);
    const fallback = blockText(said[0]?.args.blocks);
    expect(fallback).toContain(title);
    expect(fallback).toMatch(/invite me/i);
    expect(said[0]?.args.replace_original).toBe(false);
    expect(String(said[1]?.args.text)).toContain('Posted to #engineering');
    expect(appPostsWith(h, 'c').filter((p) => p.title === title)).toHaveLength(1);
  });

  it.each([
    ['a leading heading', (words: string) => `# ${words}\n\nDetails follow.`],
    ['a first paragraph only bold', (words: string) => `**${words}**\n\nDetails follow.`],
  ])(
    'an ambiguous create of a post titled by the service from %s is recovered: one post',
    async (_label, body) => {
      h.emulator.faults.add({ route: 'POST /v2/posts', drop: 'afterApply' });
      const words = unique('Derived title');
      const origin = originOf(h);
      const { state } = await run(h, 'createPost', {
        origin,
        channel: { name: 'engineering' },
        content: body(words),
      });
      expect(state).toBe('completed');
      const posts = appPostsWith(h, words);
      expect(posts).toHaveLength(1);
      // No title was sent; the service took it from the content, and the recover still knew the post.
      expect(posts[0]?.title).toBe(words);
      expect(
        h.emulator.received.filter(
          (r) => r.route === 'POST /v2/posts' && JSON.stringify(r.body).includes(words),
        ),
      ).toHaveLength(1);
      expect(responseTexts(h, origin).at(-1)).toContain('Posted to #engineering');
    },
  );

  it('a duplicate enqueue (same idempotency key) is dropped: one post', async () => {
    const text = unique('twice');
    const data = { origin: originOf(h), channel: { name: 'engineering' }, content: text };
    const first = await h.bot.queue.enqueue('createPost', data, { idempotencyKey: `dup-${text}` });
    const second = await h.bot.queue.enqueue('createPost', data, { idempotencyKey: `dup-${text}` });
    expect(first.status).toBe('queued');
    expect(second).toEqual({ status: 'duplicate', jobId: first.jobId });
    expect(await h.settled(first.jobId)).toBe('completed');
    expect(appPostsWith(h, text)).toHaveLength(1);
  });

  it('from a Slack message: links back to it and puts the card in its thread', async () => {
    const seeded = h.slack.seedMessage('C_SOURCE', { user: 'U_GRACE', text: 'the build is red' });
    const text = unique('from a message');
    const origin = originOf(h, { slackChannel: 'C_SOURCE', source: 'shortcut' });
    const { state } = await run(h, 'createPost', {
      origin,
      channel: { name: 'engineering' },
      content: text,
      fromMessage: { slackChannel: 'C_SOURCE', ts: seeded.ts },
    });
    expect(state).toBe('completed');
    const [post] = appPostsWith(h, text);
    expect(post?.content_markdown).toMatch(
      /_Posted from Slack by Ada Lovelace \(\[message\]\(https:\/\/slack\.example\/archives\/C_SOURCE\/p\d+\)\)_$/,
    );
    const card = callsOf(h, 'chat.postMessage').find((c) => c.args.channel === 'C_SOURCE');
    expect(card?.args.thread_ts).toBe(seeded.ts);
    // The confirmation says where the card went: the message's thread, linked.
    const told = blockText(responses(h, origin).at(-1)?.args.blocks);
    expect(told).toMatch(
      /Its card is in the thread of <https:\/\/slack\.example\/archives\/C_SOURCE\/p\d+\|the message>\./,
    );
  });

  it('end to end: a slash command in, the post made, the ack replaced with where it went', async () => {
    const title = unique('From the command');
    const settled = h.nextSettled('createPost');
    const ack = await h.command(`post #engineering ${title} | Body from the command`);
    expect(ack.status).toBe(200);
    const { job, state } = await settled;
    expect(state).toBe('completed');
    expect(appPostsWith(h, 'Body from the command').map((p) => p.title)).toEqual([title]);
    const { responseUrl } = (job.data as { origin: { responseUrl: string } }).origin;
    const answer = await h.slackCall(
      (c) => c.method === 'response_url' && responseUrl.endsWith(c.path ?? '?'),
    );
    expect(answer.args.replace_original).toBe(true);
    expect(String(answer.args.text)).toContain('Posted to #engineering:');
  });
});
