/**
 * Modal submissions, through signed view_submission payloads: validation answered inline
 * (`response_action: 'errors'`), one job per view id (a resubmission enqueues nothing new),
 * and a modal without sane metadata closed with a message to the person.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { channelOptionValue } from '../../../../src/render/modals.ts';
import { viewSubmission } from '../../../../src/sandbox/slack/index.ts';
import { CHANNEL_NEEDED } from '../../../../src/slack/listeners/views/createPost.ts';
import { ADA, type Harness, SLACK_CHANNEL, TEAM } from '../../../support/harness.ts';
import { type AckBody, expectNothingQueued, jobIdOf, onlyJob, useWebHarness } from '../support.ts';

let h: Harness;
useWebHarness((started) => {
  h = started;
});

const viewId = () => `V${randomBytes(5).toString('hex').toUpperCase()}`;
const text = (value: string | null) => ({ type: 'plain_text_input', value });

interface Submit {
  callbackId: string;
  metadata: unknown;
  values: Record<string, Record<string, unknown>>;
  id?: string;
}

function submission({ callbackId, metadata, values, id = viewId() }: Submit) {
  return viewSubmission({
    user: ADA,
    view: {
      id,
      callback_id: callbackId,
      private_metadata: typeof metadata === 'string' ? metadata : JSON.stringify(metadata),
      state: { values },
    },
  });
}

function postValues(fields: { channel?: string; title?: string; content: string | null }) {
  return {
    channel: {
      channel_picker: {
        type: 'external_select',
        selected_option: fields.channel
          ? { text: { type: 'plain_text', text: '#x' }, value: fields.channel }
          : null,
      },
    },
    title: { title_input: text(fields.title ?? null) },
    content: { content_input: text(fields.content) },
  };
}

const where = () => ({
  slackChannel: SLACK_CHANNEL,
  responseUrl: h.slack.responseUrl('modal'),
  responseUrlAt: Date.now(),
});

async function link(slackChannel: string) {
  await h.bot.store.links.set(TEAM, slackChannel, {
    channelId: 'CH_LINKED',
    channelName: 'linked',
    bridgeReplies: false,
    linkedBy: ADA,
    linkedAt: new Date().toISOString(),
  });
}

describe('post_create', () => {
  it('enqueues createPost with the picked channel and closes the modal', async () => {
    const meta = where();
    const payload = submission({
      callbackId: 'post_create',
      metadata: meta,
      values: postValues({
        channel: channelOptionValue({ id: 'CH_ENG', name: 'engineering' }),
        title: '  Launch  ',
        content: 'We launch **Monday**',
      }),
    });
    const response = await h.interact(payload);
    expect(response.status).toBe(200);
    expect(response.body).toBe('');

    const job = await onlyJob(h);
    expect(job.name).toBe('createPost');
    expect(job.id).toBe(await jobIdOf(h, `view:${payload.view.id}`));
    expect(job.data).toEqual({
      origin: {
        teamId: TEAM,
        userId: ADA,
        slackChannel: SLACK_CHANNEL,
        responseUrl: meta.responseUrl,
        // dated from the opener that Slack gave it to, not from the submission
        responseUrlAt: meta.responseUrlAt,
        receivedAt: expect.any(Number),
        source: 'modal',
      },
      channel: { id: 'CH_ENG' },
      title: 'Launch',
      content: 'We launch **Monday**',
    });
  });

  it('a 4,000-character title errors inline on the title, saying the limit: nothing is cut silently', async () => {
    const response = await h.interact(
      submission({
        callbackId: 'post_create',
        metadata: where(),
        values: postValues({
          channel: channelOptionValue({ id: 'CH_ENG', name: 'engineering' }),
          title: 't'.repeat(4000),
          content: 'body',
        }),
      }),
    );
    expect(response.json<AckBody>().errors).toEqual({
      title: 'A title holds at most 250 characters; this one has 4,000. Put the rest in the content.',
    });
    await expectNothingQueued(h);
  });

  it('without a picked channel, posts to the channel linked to the Slack channel', async () => {
    await link('C_LINKED_1');
    await h.interact(
      submission({
        callbackId: 'post_create',
        metadata: { slackChannel: 'C_LINKED_1' },
        values: postValues({ content: 'hello' }),
      }),
    );
    const job = await onlyJob(h);
    expect(job.data).toEqual({
      origin: expect.objectContaining({ slackChannel: 'C_LINKED_1', source: 'modal' }),
      content: 'hello',
    });
  });

  it('keeps the message a post was made from (shortcut) and the thread', async () => {
    await h.interact(
      submission({
        callbackId: 'post_create',
        metadata: {
          ...where(),
          threadTs: '1700.1',
          fromMessage: { slackChannel: SLACK_CHANNEL, ts: '1700.2' },
        },
        values: postValues({ channel: 'CH_1', content: 'from a message' }),
      }),
    );
    const job = await onlyJob(h);
    expect(job.data).toMatchObject({
      origin: { threadTs: '1700.1' },
      channel: { id: 'CH_1' },
      fromMessage: { slackChannel: SLACK_CHANNEL, ts: '1700.2' },
    });
  });

  it('drops a response url too old to use', async () => {
    await h.interact(
      submission({
        callbackId: 'post_create',
        metadata: { ...where(), responseUrlAt: Date.now() - 40 * 60_000 },
        values: postValues({ channel: 'CH_1', content: 'slow writer' }),
      }),
    );
    const job = await onlyJob(h);
    expect((job.data as { origin: Record<string, unknown> }).origin).not.toHaveProperty('responseUrl');
  });

  it.each([
    ['no channel and no link', postValues({ content: 'x' }), { channel: CHANNEL_NEEDED }],
    ['empty content', postValues({ channel: 'CH_1', content: '   ' }), { content: 'Write the post.' }],
    [
      'oversize content',
      postValues({ channel: 'CH_1', content: 'x'.repeat(40_001) }),
      { content: 'That is 40,001 characters; the limit is 40,000.' },
    ],
    [
      'nothing at all',
      postValues({ content: null }),
      { channel: CHANNEL_NEEDED, content: 'Write the post.' },
    ],
  ])('%s: errors inline, nothing enqueued', async (_what, values, errors) => {
    const response = await h.interact(
      submission({ callbackId: 'post_create', metadata: { slackChannel: 'C_UNLINKED' }, values }),
    );
    expect(response.status).toBe(200);
    expect(response.json<AckBody>()).toEqual({ response_action: 'errors', errors });
    await expectNothingQueued(h);
  });

  it('a resubmitted modal (same view id) enqueues once and closes both times', async () => {
    const payload = submission({
      callbackId: 'post_create',
      metadata: where(),
      values: postValues({ channel: 'CH_1', content: 'twice' }),
    });
    const first = await h.interact(payload);
    const second = await h.interact(payload);
    expect([first.status, first.body, second.status, second.body]).toEqual([200, '', 200, '']);
    expect((await onlyJob(h)).name).toBe('createPost');
  });

  it.each([
    ['not JSON', 'C_GENERAL'],
    ['empty', ''],
    ['no Slack channel', { responseUrl: 'https://x.example/r' }],
    ['wrong types', { slackChannel: 42 }],
  ])(
    'malformed metadata (%s): closes the modal, tells the person by DM, enqueues nothing',
    async (_w, metadata) => {
      const response = await h.interact(
        submission({
          callbackId: 'post_create',
          metadata,
          values: postValues({ channel: 'CH_1', content: 'lost?' }),
        }),
      );
      expect(response.status).toBe(200);
      expect(response.body).toBe('');
      const told = await h.slackCall((c) => c.method === 'chat.postMessage');
      expect(told.args.channel).toBe(ADA);
      expect(String(told.args.text)).toContain('could not be submitted');
      await expectNothingQueued(h);
    },
  );
});

describe('comment_create', () => {
  const values = (comment: string | null) => ({ comment: { comment_input: text(comment) } });

  it('enqueues createComment on the post, with the card to update', async () => {
    const payload = submission({
      callbackId: 'comment_create',
      metadata: { ...where(), postId: 'P_7', card: { slackChannel: SLACK_CHANNEL, ts: '1700.5' } },
      values: values('Looks good to me'),
    });
    const response = await h.interact(payload);
    expect([response.status, response.body]).toEqual([200, '']);
    const job = await onlyJob(h);
    expect(job.name).toBe('createComment');
    expect(job.id).toBe(await jobIdOf(h, `view:${payload.view.id}`));
    expect(job.data).toEqual({
      origin: expect.objectContaining({
        teamId: TEAM,
        userId: ADA,
        slackChannel: SLACK_CHANNEL,
        source: 'modal',
      }),
      post: { id: 'P_7' },
      text: 'Looks good to me',
      card: { slackChannel: SLACK_CHANNEL, ts: '1700.5' },
    });
  });

  it('an empty comment errors inline', async () => {
    const response = await h.interact(
      submission({
        callbackId: 'comment_create',
        metadata: { ...where(), postId: 'P_7' },
        values: values(''),
      }),
    );
    expect(response.json<AckBody>()).toEqual({
      response_action: 'errors',
      errors: { comment: 'Write the comment.' },
    });
    await expectNothingQueued(h);
  });

  it('metadata without the post closes the modal and tells the person', async () => {
    await h.interact(submission({ callbackId: 'comment_create', metadata: where(), values: values('hi') }));
    const told = await h.slackCall((c) => c.method === 'chat.postMessage');
    expect(String(told.args.text)).toContain('Your comment could not be submitted');
    await expectNothingQueued(h);
  });
});

describe('post_resolve', () => {
  const values = (message: string | null) => ({ resolution: { resolution_input: text(message) } });

  it('enqueues resolvePost with the message', async () => {
    const payload = submission({
      callbackId: 'post_resolve',
      metadata: { ...where(), postId: 'P_8', card: { slackChannel: SLACK_CHANNEL, ts: '1700.6' } },
      values: values('Shipped in 2.0'),
    });
    await h.interact(payload);
    const job = await onlyJob(h);
    expect(job.name).toBe('resolvePost');
    expect(job.id).toBe(await jobIdOf(h, `view:${payload.view.id}`));
    expect(job.data).toEqual({
      origin: expect.objectContaining({ source: 'modal' }),
      post: { id: 'P_8' },
      message: 'Shipped in 2.0',
      card: { slackChannel: SLACK_CHANNEL, ts: '1700.6' },
    });
  });

  it('resolves with the bridged comment and no message', async () => {
    await h.interact(
      submission({
        callbackId: 'post_resolve',
        metadata: { ...where(), postId: 'P_8', commentId: 'CM_3' },
        values: values(null),
      }),
    );
    const job = await onlyJob(h);
    expect(job.data).toEqual({
      origin: expect.objectContaining({ source: 'modal' }),
      post: { id: 'P_8' },
      commentId: 'CM_3',
    });
  });

  it('an oversize message errors inline', async () => {
    const response = await h.interact(
      submission({
        callbackId: 'post_resolve',
        metadata: { ...where(), postId: 'P_8' },
        values: values('y'.repeat(40_001)),
      }),
    );
    expect(response.json<AckBody>().errors).toEqual({
      resolution: 'That is 40,001 characters; the limit is 40,000.',
    });
    await expectNothingQueued(h);
  });
});
