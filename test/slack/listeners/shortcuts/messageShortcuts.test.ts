/**
 * Message shortcuts, through signed message_action payloads: the forms they open (callback id,
 * prefill, metadata), how they find the post of a message, and what they say when there is none.
 * None of them enqueues anything: the form's submission does.
 */
import { describe, expect, it } from 'vitest';
import type { RecordedCall } from '../../../../src/sandbox/slack/index.ts';
import { globalShortcut, messageShortcut, nextTs } from '../../../../src/sandbox/slack/index.ts';
import { NO_POST_HERE } from '../../../../src/slack/listeners/shortcuts/commentOnPost.ts';
import { NOTHING_TO_RESOLVE } from '../../../../src/slack/listeners/shortcuts/resolvePost.ts';
import { ADA, GRACE, type Harness, SLACK_CHANNEL, TEAM } from '../../../support/harness.ts';
import { expectNothingQueued, useWebHarness } from '../support.ts';

let h: Harness;
useWebHarness((started) => {
  h = started;
});

function shortcut(
  callbackId: string,
  message: { ts: string; text: string; user?: string; thread_ts?: string },
) {
  return messageShortcut({
    callback_id: callbackId,
    user: ADA,
    channel: SLACK_CHANNEL,
    message: { user: GRACE, ...message },
    response_url: h.slack.responseUrl(`sc-${message.ts}`),
  });
}

interface OpenedView {
  callback_id: string;
  private_metadata: string;
  blocks: Array<{
    block_id?: string;
    type: string;
    text?: { text: string };
    element?: Record<string, unknown>;
  }>;
}

function viewOf(call: RecordedCall): OpenedView {
  return call.args.view as OpenedView;
}

function inputValue(view: OpenedView, block: string): unknown {
  return view.blocks.find((b) => b.block_id === block)?.element?.initial_value;
}

describe('create_post_from_message', () => {
  it('opens the post form with the message as markdown, names for mentions and a link back', async () => {
    const message = h.slack.seedMessage(SLACK_CHANNEL, {
      user: GRACE,
      text: 'Ask <@U_ADA> about *launch* &amp; <https://docs.example/x|the docs>',
    });
    const payload = shortcut('create_post_from_message', message);
    const response = await h.interact(payload);
    expect([response.status, response.body]).toEqual([200, '']);

    const call = await h.slackCall((c) => c.method === 'views.open');
    expect(call.args.trigger_id).toBe(payload.trigger_id);
    const view = viewOf(call);
    expect(view.callback_id).toBe('post_create');
    // Title first (focused as the form opens), prefilled from the first line; the channel last.
    expect(view.blocks.map((b) => b.block_id)).toEqual(['title', 'content', 'channel']);
    expect(inputValue(view, 'title')).toBe('Ask @Ada about launch & the docs');
    expect(view.blocks[0]?.element?.focus_on_load).toBe(true);
    expect(view.blocks.some((b) => b.block_id === 'channel' && b.element?.focus_on_load)).toBe(false);
    expect(inputValue(view, 'content')).toBe(
      `Ask @Ada about **launch** & [the docs](https://docs.example/x)\n\n[View in Slack](https://slack.example/archives/${SLACK_CHANNEL}/p${message.ts.replace('.', '')})`,
    );
    expect(JSON.parse(view.private_metadata)).toEqual({
      slackChannel: SLACK_CHANNEL,
      responseUrl: payload.response_url,
      responseUrlAt: expect.any(Number),
      fromMessage: { slackChannel: SLACK_CHANNEL, ts: message.ts },
    });
    await expectNothingQueued(h);
  });

  it('falls back to raw ids and no link when Slack lookups fail, and still opens the form', async () => {
    h.slack.failNext('users.info', 'user_not_found');
    h.slack.failNext('chat.getPermalink', 'message_not_found');
    const ts = nextTs();
    await h.interact(shortcut('create_post_from_message', { ts, text: 'cc <@U_NOBODY>' }));
    const view = viewOf(await h.slackCall((c) => c.method === 'views.open'));
    expect(inputValue(view, 'content')).toBe('cc @U_NOBODY');
  });

  it('looks a name up once, then reads it from the cache', async () => {
    const first = h.slack.seedMessage(SLACK_CHANNEL, { user: ADA, text: 'hi <@U_GRACE>' });
    const second = h.slack.seedMessage(SLACK_CHANNEL, { user: ADA, text: 'again <@U_GRACE>' });
    await h.interact(shortcut('create_post_from_message', first));
    await h.slackCall((c) => c.method === 'views.open' && c.args.trigger_id !== undefined);
    const secondPayload = shortcut('create_post_from_message', second);
    await h.interact(secondPayload);
    const view = viewOf(
      await h.slackCall((c) => c.method === 'views.open' && c.args.trigger_id === secondPayload.trigger_id),
    );
    expect(String(inputValue(view, 'content'))).toMatch(/^again @Grace/);
    expect(h.slack.calls.filter((c) => c.method === 'users.info')).toHaveLength(1);
  });

  it('tells the person when the form cannot open', async () => {
    const payload = {
      ...shortcut('create_post_from_message', { ts: nextTs(), text: 'x' }),
      trigger_id: 'expired',
    };
    await h.interact(payload);
    const told = await h.slackCall((c) => c.method === 'response_url');
    expect(String(told.args.text)).toContain('could not open the post form');
  });
});

describe('comment_on_post', () => {
  it('on a post card: opens the comment form for its post, with the card', async () => {
    const ts = nextTs();
    await h.bot.store.cards.rememberCard(TEAM, 'P_CARD', { slackChannel: SLACK_CHANNEL, ts });
    const payload = shortcut('comment_on_post', { ts, text: 'card' });
    await h.interact(payload);
    const view = viewOf(await h.slackCall((c) => c.method === 'views.open'));
    expect(view.callback_id).toBe('comment_create');
    expect(JSON.parse(view.private_metadata)).toMatchObject({
      slackChannel: SLACK_CHANNEL,
      postId: 'P_CARD',
      card: { slackChannel: SLACK_CHANNEL, ts },
    });
  });

  it('on a message linking to a post the bot has seen: opens the form for that post', async () => {
    await h.bot.store.urls.remember(TEAM, 'https://collab.example/posts/42', 'P_42');
    const text = 'see <https://other.example/x> and <https://collab.example/posts/42|this post>';
    await h.interact(shortcut('comment_on_post', { ts: nextTs(), text }));
    const view = viewOf(await h.slackCall((c) => c.method === 'views.open'));
    const metadata = JSON.parse(view.private_metadata);
    expect(metadata.postId).toBe('P_42');
    expect(metadata).not.toHaveProperty('card');
  });

  it('on any other message: explains, opens nothing', async () => {
    await h.interact(
      shortcut('comment_on_post', { ts: nextTs(), text: 'just chatting <https://x.example>' }),
    );
    const told = await h.slackCall((c) => c.method === 'response_url');
    expect(told.args.response_type).toBe('ephemeral');
    expect(String(told.args.text)).toContain(NO_POST_HERE);
    expect(h.slack.calls.filter((c) => c.method === 'views.open')).toEqual([]);
    await expectNothingQueued(h);
  });
});

describe('resolve_post', () => {
  it('on a post card: opens the resolve form for its post', async () => {
    const ts = nextTs();
    await h.bot.store.cards.rememberCard(TEAM, 'P_R1', { slackChannel: SLACK_CHANNEL, ts });
    await h.interact(shortcut('resolve_post', { ts, text: 'card' }));
    const view = viewOf(await h.slackCall((c) => c.method === 'views.open'));
    expect(view.callback_id).toBe('post_resolve');
    const metadata = JSON.parse(view.private_metadata);
    expect(metadata).toMatchObject({ postId: 'P_R1', card: { slackChannel: SLACK_CHANNEL, ts } });
    expect(metadata).not.toHaveProperty('commentId');
  });

  it('on a bridged reply: opens it with that comment as the resolving comment', async () => {
    const cardTs = nextTs();
    const replyTs = nextTs();
    await h.bot.store.cards.rememberCard(TEAM, 'P_R2', { slackChannel: SLACK_CHANNEL, ts: cardTs });
    await h.bot.store.cards.rememberReply(
      TEAM,
      { slackChannel: SLACK_CHANNEL, ts: replyTs },
      { postId: 'P_R2', commentId: 'CM_R2' },
    );
    await h.interact(
      shortcut('resolve_post', { ts: replyTs, thread_ts: cardTs, text: 'Fixed by rolling back' }),
    );
    const view = viewOf(await h.slackCall((c) => c.method === 'views.open'));
    expect(view.callback_id).toBe('post_resolve');
    expect(JSON.parse(view.private_metadata)).toMatchObject({
      postId: 'P_R2',
      commentId: 'CM_R2',
      threadTs: cardTs,
      card: { slackChannel: SLACK_CHANNEL, ts: cardTs },
    });
    expect(view.blocks.map((b) => b.text?.text ?? '').join('\n')).toContain('Fixed by rolling back');
  });

  it('on any other message: explains, opens nothing', async () => {
    await h.interact(shortcut('resolve_post', { ts: nextTs(), text: 'hello' }));
    const told = await h.slackCall((c) => c.method === 'response_url');
    expect(String(told.args.text)).toContain(NOTHING_TO_RESOLVE);
    expect(h.slack.calls.filter((c) => c.method === 'views.open')).toEqual([]);
  });
});

describe('malformed shortcuts', () => {
  it.each(['create_post_from_message', 'comment_on_post', 'resolve_post'])(
    '%s without a message: explains, opens nothing',
    async (callbackId) => {
      const payload = {
        ...shortcut(callbackId, { ts: nextTs(), text: 'x' }),
        message: undefined,
        message_ts: '',
      };
      const response = await h.interact(payload);
      expect(response.status).toBe(200);
      const told = await h.slackCall((c) => c.method === 'response_url');
      expect(String(told.args.text)).toContain('could not read');
      expect(h.slack.calls.filter((c) => c.method === 'views.open')).toEqual([]);
      await expectNothingQueued(h);
    },
  );
});

describe('create_post_from_thread', () => {
  const link = (ts: string) => `https://slack.example/archives/${SLACK_CHANNEL}/p${ts.replace('.', '')}`;

  it('gathers the replies with conversations.replies: each with its author’s name and a link', async () => {
    const root = h.slack.seedMessage(SLACK_CHANNEL, { user: GRACE, text: 'Deploy is *stuck*\nsince 9:00' });
    const first = h.slack.seedMessage(SLACK_CHANNEL, { user: ADA, text: 'Looking', thread_ts: root.ts });
    const second = h.slack.seedMessage(SLACK_CHANNEL, {
      user: GRACE,
      text: 'Fixed by <@U_ADA>\nthanks',
      thread_ts: root.ts,
    });
    const payload = shortcut('create_post_from_thread', root);
    const response = await h.interact(payload);
    expect(response.status).toBe(200);

    const view = viewOf(await h.slackCall((c) => c.method === 'views.open'));
    const replies = h.slack.calls.filter((c) => c.method === 'conversations.replies');
    expect(replies.map((c) => c.args)).toEqual([
      expect.objectContaining({ channel: SLACK_CHANNEL, ts: root.ts }),
    ]);
    expect(view.callback_id).toBe('post_create');
    expect(inputValue(view, 'title')).toBe('Deploy is stuck');
    expect(inputValue(view, 'content')).toBe(
      [
        `Deploy is **stuck**\nsince 9:00\n\n[View in Slack](${link(root.ts)})`,
        '**Replies in Slack**',
        `- **Ada** ([message](${link(first.ts)}?thread_ts=${root.ts}&cid=${SLACK_CHANNEL})): Looking\n- **Grace** ([message](${link(second.ts)}?thread_ts=${root.ts}&cid=${SLACK_CHANNEL})): Fixed by @Ada\n  thanks`,
      ].join('\n\n'),
    );
    // The card goes into the thread.
    expect(JSON.parse(view.private_metadata)).toMatchObject({
      slackChannel: SLACK_CHANNEL,
      fromMessage: { slackChannel: SLACK_CHANNEL, ts: root.ts },
    });
    await expectNothingQueued(h);
  });

  it('counts the replies that do not fit the form, with a link to the thread', async () => {
    const root = h.slack.seedMessage(SLACK_CHANNEL, { user: GRACE, text: 'Long thread' });
    for (let i = 0; i < 40; i++) {
      h.slack.seedMessage(SLACK_CHANNEL, {
        user: ADA,
        text: `reply ${i} ${'x'.repeat(100)}`,
        thread_ts: root.ts,
      });
    }
    await h.interact(shortcut('create_post_from_thread', root));
    const content = String(
      inputValue(viewOf(await h.slackCall((c) => c.method === 'views.open')), 'content'),
    );
    expect(content.length).toBeLessThanOrEqual(3000);
    expect(content).toMatch(/_…and \d+ more replies \[in Slack\]\(https:\/\/slack\.example\/[^)]+\)_$/);
    expect(content).toContain('reply 0 ');
  });
});

describe('new_post (global shortcut)', () => {
  it('opens the post form; the card will go to the person’s conversation with the app', async () => {
    const payload = globalShortcut({ callback_id: 'new_post', user: ADA, team_id: TEAM });
    const response = await h.interact(payload);
    expect(response.status).toBe(200);
    const call = await h.slackCall((c) => c.method === 'views.open');
    expect(call.args.trigger_id).toBe(payload.trigger_id);
    const view = viewOf(call);
    expect(view.callback_id).toBe('post_create');
    expect(inputValue(view, 'title')).toBeUndefined();
    expect(JSON.parse(view.private_metadata)).toEqual({ slackChannel: ADA });
    await expectNothingQueued(h);
  });
});
