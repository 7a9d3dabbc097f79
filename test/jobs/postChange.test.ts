import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_NAME } from '../../src/sandbox/emulator/index.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { blockText, originOf, postWithCard, responseTexts, run, updatesOf } from './helpers.ts';

const RESOLVE = 'POST /v2/posts/{post_id}/resolution';
const REOPEN = 'DELETE /v2/posts/{post_id}/resolution';

describe('resolvePost, unresolvePost, createComment', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('resolves by url with a message: attributed, its card updated in place, the person told', async () => {
    const { post, card, title, url } = await postWithCard(h);
    const origin = originOf(h, { source: 'modal' });
    const { state } = await run(h, 'resolvePost', {
      origin,
      post: { url: `<${url}|${title}>` },
      message: 'Fixed in v2',
    });
    expect(state).toBe('completed');

    const resolution = h.emulator.org().posts.get(post.id)?.resolution;
    expect(resolution?.resolved_by.type).toBe('app');
    const sent = h.emulator.received.find(
      (r) => r.route === 'POST /v2/posts/{post_id}/resolution' && r.path.includes(post.id),
    );
    expect(sent?.body).toEqual({ content_markdown: 'Fixed in v2\n\n_Resolved from Slack by Ada Lovelace_' });

    const updates = updatesOf(h, card);
    expect(updates).toHaveLength(1);
    const shown = blockText(updates[0]?.args.blocks);
    expect(shown).toContain(title);
    // The service says the app resolved it; the card names the person once, and not the app.
    expect(shown).toContain('*Resolved* by *Ada Lovelace* via Slack');
    expect(shown.split('Ada Lovelace')).toHaveLength(3); // the post's author line, and the resolution
    expect(shown).not.toContain('Resolved from Slack');
    expect(shown).not.toContain(APP_NAME);
    expect(shown).not.toContain('(app)');
    expect(shown).toContain('Fixed in v2');
    expect(responseTexts(h, origin)).toEqual([`:white_check_mark: Resolved <${url}|${title}>`]);
  });

  it('without a message sends only who resolved it; with a comment id, that comment too', async () => {
    const { post } = await postWithCard(h);
    expect((await run(h, 'resolvePost', { origin: originOf(h), post: { id: post.id } })).state).toBe(
      'completed',
    );
    const comment = h.emulator.org().actAs(memberOf(h, 'grace@example.com')).createComment(post.id, {
      content_markdown: 'The answer',
    });
    expect(
      (await run(h, 'resolvePost', { origin: originOf(h), post: { id: post.id }, commentId: comment.id }))
        .state,
    ).toBe('completed');
    const bodies = h.emulator.received
      .filter((r) => r.route === 'POST /v2/posts/{post_id}/resolution' && r.path.includes(post.id))
      .map((r) => r.body);
    const attribution = '_Resolved from Slack by Ada Lovelace_';
    expect(bodies).toEqual([
      { content_markdown: attribution },
      { content_markdown: attribution, comment_id: comment.id },
    ]);
  });

  it('a button press: the card changes in place, nothing else is said', async () => {
    const { post, card } = await postWithCard(h);
    const origin = originOf(h, { source: 'button', slackChannel: card.slackChannel });
    expect((await run(h, 'resolvePost', { origin, post: { id: post.id }, card })).state).toBe('completed');
    expect(updatesOf(h, card)).toHaveLength(1);
    expect(responseTexts(h, origin)).toEqual([]);
  });

  it("a stale card's Resolve on a post resolved since: its resolution kept, the card shows it", async () => {
    const { post, card } = await postWithCard(h);
    const org = h.emulator.org();
    org.resolvePost(post.author, post.id, { content_markdown: 'Fixed by reverting the cache change' });
    const origin = originOf(h, { source: 'button', slackChannel: card.slackChannel });
    const sent = h.emulator.received.length;
    expect((await run(h, 'resolvePost', { origin, post: { id: post.id }, card })).state).toBe('completed');
    expect(h.emulator.received.slice(sent).map((r) => r.route)).not.toContain(RESOLVE);
    expect(org.posts.get(post.id)?.resolution?.resolved_html).toContain(
      'Fixed by reverting the cache change',
    );
    const updates = updatesOf(h, card);
    expect(updates).toHaveLength(1);
    const shown = blockText(updates[0]?.args.blocks);
    expect(shown).toContain('Fixed by reverting the cache change');
    expect(shown).toContain('Reopen');
    expect(responseTexts(h, origin)).toEqual([]);
  });

  it('updates a card it had not remembered (the one acted on), and remembers it', async () => {
    const { post } = await postWithCard(h);
    await run(h, 'resolvePost', { origin: originOf(h), post: { id: post.id } });
    const posted = await fetchPostMessage(h, 'C_OTHER', 'an old card');
    const card = { slackChannel: 'C_OTHER', ts: posted };
    expect((await run(h, 'unresolvePost', { origin: originOf(h), post: { id: post.id }, card })).state).toBe(
      'completed',
    );
    const update = updatesOf(h, card);
    expect(update).toHaveLength(1);
    expect(blockText(update[0]?.args.blocks)).toContain('Reopened by *Ada Lovelace* via Slack');
    expect(await h.bot.store.cards.cardsOfPost('T_LOCAL', post.id)).toContainEqual(card);
  });

  it('reopens, and forgets a card whose message is gone', async () => {
    const { post, card, url, title } = await postWithCard(h);
    await run(h, 'resolvePost', { origin: originOf(h), post: { id: post.id } });
    h.slack.failNext('chat.update', 'message_not_found');
    const origin = originOf(h);
    expect((await run(h, 'unresolvePost', { origin, post: { id: post.id } })).state).toBe('completed');
    expect(h.emulator.org().posts.get(post.id)?.resolution).toBeNull();
    expect(await h.bot.store.cards.cardsOfPost('T_LOCAL', post.id)).not.toContainEqual(card);
    expect(responseTexts(h, origin)).toEqual([`:white_check_mark: Reopened <${url}|${title}>`]);
  });

  it('reopening a post that is open: nothing sent, the person told so, no note on its card', async () => {
    const { post, card, url, title } = await postWithCard(h);
    const origin = originOf(h);
    const sent = h.emulator.received.length;
    expect((await run(h, 'unresolvePost', { origin, post: { id: post.id } })).state).toBe('completed');
    expect(h.emulator.received.slice(sent).map((r) => r.route)).not.toContain(REOPEN);
    expect(responseTexts(h, origin)).toEqual([
      `:white_check_mark: Already open, nothing to reopen: <${url}|${title}>`,
    ]);
    const updates = updatesOf(h, card);
    expect(updates).toHaveLength(1);
    expect(blockText(updates[0]?.args.blocks)).not.toContain('Reopened by');
  });

  it("a stale card's Reopen on a post already open: the card shows it open, nothing said", async () => {
    const { post, card } = await postWithCard(h);
    const origin = originOf(h, { source: 'button', slackChannel: card.slackChannel });
    const sent = h.emulator.received.length;
    expect((await run(h, 'unresolvePost', { origin, post: { id: post.id }, card })).state).toBe('completed');
    expect(h.emulator.received.slice(sent).map((r) => r.route)).not.toContain(REOPEN);
    const updates = updatesOf(h, card);
    expect(updates).toHaveLength(1);
    const shown = blockText(updates[0]?.args.blocks);
    expect(shown).toContain('Resolve');
    expect(shown).not.toContain('Reopened by');
    expect(responseTexts(h, origin)).toEqual([]);
  });

  it('an unknown url is the person’s to fix', async () => {
    const origin = originOf(h);
    expect(
      (await run(h, 'resolvePost', { origin, post: { url: 'https://elsewhere.example/p/1' } })).state,
    ).toBe('failed');
    expect(responseTexts(h, origin)).toEqual([
      ':warning: I have not seen that link yet — use the post id (shown on its card).',
    ]);
  });

  it('comments as the person, as a reply to a comment, remembers the Slack reply, updates the card', async () => {
    const { post, card, url, title } = await postWithCard(h);
    const parent = h.emulator.org().actAs(memberOf(h, 'grace@example.com')).createComment(post.id, {
      content_markdown: 'Question?',
    });
    const origin = originOf(h);
    const reply = { slackChannel: card.slackChannel, ts: '1700000000.000900' };
    const { state } = await run(h, 'createComment', {
      origin,
      post: { id: post.id },
      parentId: parent.id,
      text: 'Answer!',
      reply,
    });
    expect(state).toBe('completed');
    const comments = h.emulator.org().commentsOf(post.id);
    const mine = comments.find((c) => c.author.type === 'app');
    expect(mine?.content_markdown).toBe('*Ada Lovelace* via Slack:\nAnswer!');
    expect(mine?.parent_id).toBe(parent.id);
    expect(await h.bot.store.cards.commentOfReply('T_LOCAL', reply)).toEqual({
      postId: post.id,
      commentId: mine?.id,
    });
    expect(blockText(updatesOf(h, card).at(-1)?.args.blocks)).toContain('2 comments');
    expect(responseTexts(h, origin)).toEqual([`:white_check_mark: Comment added to <${url}|${title}>`]);
  });

  it('a bridged Slack reply (source event) comments quietly', async () => {
    const { post } = await postWithCard(h);
    const origin = originOf(h, { source: 'event' });
    expect(
      (await run(h, 'createComment', { origin, post: { id: post.id }, text: 'from a thread' })).state,
    ).toBe('completed');
    expect(
      h.emulator
        .org()
        .commentsOf(post.id)
        .map((c) => c.content_markdown),
    ).toEqual(['*Ada Lovelace* via Slack:\nfrom a thread']);
    expect(responseTexts(h, origin)).toEqual([]);
    expect(
      h.slack.calls.filter(
        (c) =>
          c.method === 'chat.postEphemeral' &&
          c.args.user === 'U_ADA' &&
          String(c.args.text).includes('Comment added'),
      ),
    ).toEqual([]);
  });

  it('a comment on a post that does not exist', async () => {
    const origin = originOf(h);
    expect(
      (await run(h, 'createComment', { origin, post: { id: 'pst_missing' }, text: 'hello' })).state,
    ).toBe('failed');
    expect(responseTexts(h, origin)).toEqual([
      ":warning: No post with id `pst_missing`. Check the id on the post's card, or list posts with `/collab posts`.",
    ]);
  });

  it('a reply to a comment the post does not have: names the comment, not the post', async () => {
    const { post } = await postWithCard(h);
    const origin = originOf(h);
    const ran = await run(h, 'createComment', {
      origin,
      post: { id: post.id },
      parentId: 'cmt_missing',
      text: 'hello',
    });
    expect(ran.state).toBe('failed');
    expect(responseTexts(h, origin)).toEqual([
      `:warning: Post \`${post.id}\` has no comment with id \`cmt_missing\`. Leave out \`parent:\` to comment on the post itself.`,
    ]);
    expect(h.emulator.org().commentsOf(post.id)).toEqual([]);
  });

  it("a card's button on a post gone from the service: the bare fact, no id to check", async () => {
    const origin = originOf(h, { source: 'button' });
    expect((await run(h, 'resolvePost', { origin, post: { id: 'pst_gone' } })).state).toBe('failed');
    expect(responseTexts(h, origin)).toEqual([':warning: No post with id `pst_gone`.']);
  });
});

function memberOf(h: Harness, email: string): string {
  return [...h.emulator.org().members.values()].find((m) => m.user.email === email)!.id;
}

/** A bot message posted straight to the stand-in (as an older version of the app would have). */
async function fetchPostMessage(h: Harness, channel: string, text: string): Promise<string> {
  const response = await fetch(`${h.slack.url}chat.postMessage`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer xoxb-test-harness' },
    body: JSON.stringify({ channel, text }),
  });
  return ((await response.json()) as { ts: string }).ts;
}
