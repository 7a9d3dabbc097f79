/**
 * Bad input at scale, property-based (fast-check): generated command texts, shortcut, view and
 * block-action payloads, event bodies and modal metadata. Most cases run the parsers and
 * validators directly (fast); a few hundred go through signed HTTP into the real web role.
 *
 * Properties: nothing throws, no promise is left rejected, every command is answered (200 with a
 * body), and nothing is enqueued for input that does not validate.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_SCHEMAS, type Origin } from '../../src/operations/schemas.ts';
import { SHORTCUTS, VIEWS } from '../../src/render/ids.ts';
import { eventBody, interactionBody, slashCommandBody } from '../../src/sandbox/slack/index.ts';
import { plan } from '../../src/slack/listeners/commands/collab.ts';
import { parseCommand, SUBCOMMANDS } from '../../src/slack/listeners/commands/grammar.ts';
import {
  BlockSuggestionBody,
  CommandBody,
  CommentModalMetadata,
  decodeMetadata,
  MessageActionBody,
  MessageEvent,
  MessageShortcutBody,
  PostModalMetadata,
  ResolveModalMetadata,
  ViewSubmissionBody,
} from '../../src/slack/listeners/payloads.ts';
import { jobIdOf, queuedJobs, startWebHarness } from '../slack/listeners/support.ts';
import { ADA, type Harness, SLACK_CHANNEL, TEAM } from '../support/harness.ts';
import { postToBolt } from '../support/slack-client.ts';

/** Any rejection nobody handled while these tests ran fails them. */
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  expect(unhandled).toEqual([]);
});

/** Every real subcommand, plus case variants and words that are not commands. */
const HEADS = [...SUBCOMMANDS, '?', 'POST', 'Resolve', 'bogus', ''];
const PIECES = [
  '|',
  '||',
  '\\|',
  '#general',
  '#',
  '<#C123|general>',
  '<#C123>',
  '<@U123>',
  '<@U_ADA|ada>',
  '<@>',
  '<!channel>',
  '<https://x.example/p/1|link>',
  '<https://x.example/p/1>',
  'parent:',
  'parent:cmt_1',
  'pst_1',
  'thr_1',
  'role:admin',
  'role:',
  'role:admin,nobody',
  'unresolved',
  'with',
  'replies',
  '&lt;',
  '&gt;',
  '&amp;',
  '`',
  '*bold*',
  '\u0000',
  '\u200b',
  '😀',
  'ｐｏｓｔ',
];

/** Command texts: pure noise, and noise shaped like the grammar (subcommand + tricky pieces). */
const commandText = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 120 }),
  fc
    .tuple(
      fc.constantFrom(...HEADS),
      fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 30 })), { maxLength: 12 }),
      fc.constantFrom(' ', '  ', '\n', '\t'),
    )
    .map(([sub, rest, sep]) => [sub, ...rest].join(sep)),
  fc.nat({ max: 45_000 }).map((n) => `post ${'x'.repeat(n)}`),
);

const ORIGIN: Origin = {
  teamId: TEAM,
  userId: ADA,
  slackChannel: SLACK_CHANNEL,
  responseUrl: 'https://hooks.slack.com/commands/T/1/abc',
  receivedAt: 1,
  source: 'command',
};

describe('parsers and validators, directly', () => {
  it('the command grammar never throws; what it accepts plans a job that validates or is refused', () => {
    let planned = 0;
    fc.assert(
      fc.property(commandText, (text) => {
        const parsed = parseCommand(text, '/collab');
        if (!parsed.ok) {
          expect(parsed.error.length).toBeGreaterThan(0);
          return;
        }
        const job = plan(parsed.command, ORIGIN);
        if ('answer' in job) return;
        planned += 1;
        // The listener answers a job that does not validate ("does not fit"); it must not throw.
        JOB_SCHEMAS[job.operation].safeParse(job.data);
      }),
      { numRuns: 6000 },
    );
    expect(planned).toBeGreaterThan(0);
  });

  it('payload schemas answer success or failure for anything, never throw', () => {
    const schemas = [
      CommandBody,
      MessageActionBody,
      ViewSubmissionBody,
      MessageShortcutBody,
      MessageEvent,
      BlockSuggestionBody,
    ];
    fc.assert(
      fc.property(fc.anything({ maxDepth: 4 }), fc.constantFrom(...schemas), (value, schema) => {
        const result = schema.safeParse(value);
        expect(typeof result.success).toBe('boolean');
      }),
      { numRuns: 3000 },
    );
  });

  it('payloads with a required field removed or mistyped never validate', () => {
    const shortcut = {
      type: 'message_action',
      callback_id: SHORTCUTS.commentOnPost,
      trigger_id: '1.2.3',
      team: { id: TEAM },
      user: { id: ADA },
      channel: { id: SLACK_CHANNEL },
      message_ts: '1.000100',
      message: { ts: '1.000100', text: 'hi' },
    };
    expect(MessageShortcutBody.safeParse(shortcut).success).toBe(true);
    const required = [
      'type',
      'callback_id',
      'trigger_id',
      'user',
      'channel',
      'message_ts',
      'message',
    ] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...required),
        fc.oneof(
          fc.constant(undefined),
          fc.integer(),
          fc.constant(''),
          fc.constant(null),
          fc.array(fc.nat()),
        ),
        (field, bad) => {
          const mutated: Record<string, unknown> = { ...shortcut, [field]: bad };
          if (bad === undefined) delete mutated[field];
          expect(MessageShortcutBody.safeParse(mutated).success).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('modal metadata decodes to a valid value or to nothing, whatever the string', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 400 }),
          fc.json({ maxDepth: 3 }),
          fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify({ slackChannel: v, postId: v })),
        ),
        fc.constantFrom(PostModalMetadata, CommentModalMetadata, ResolveModalMetadata),
        (raw, schema) => {
          const decoded = decodeMetadata(schema, raw);
          if (decoded !== undefined) expect(schema.safeParse(decoded).success).toBe(true);
        },
      ),
      { numRuns: 1500 },
    );
  });
});

describe('through signed HTTP into the web role', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startWebHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const trigger = () => `fuzz-${randomBytes(6).toString('hex')}`;

  it('every command is answered 200 with a body, and invalid ones enqueue nothing', async () => {
    const texts = fc.sample(commandText, { numRuns: 250, seed: 7 });
    for (const text of texts) {
      const triggerId = trigger();
      const body = slashCommandBody({
        command: '/collab',
        text,
        user_id: ADA,
        channel_id: SLACK_CHANNEL,
        team_id: TEAM,
        response_url: h.slack.responseUrl(),
        trigger_id: triggerId,
      });
      const res = await postToBolt(h.baseUrl, h.signingSecret, 'command', body);
      expect(res.status, text).toBe(200);
      const parsed = parseCommand(text, '/collab');
      // Only `post` with no text opens the form, acked empty; everything else answers in words.
      if (!(parsed.ok && parsed.command.kind === 'postModal'))
        expect(res.body.length, text).toBeGreaterThan(0);
      if (!parsed.ok) {
        expect(await jobIdOf(h, `cmd:${triggerId}`), text).toBeUndefined();
      }
    }
  }, 60_000);

  // A body whose envelope Bolt reads is refused at the door (400, slack/requestShape.ts); one
  // Bolt can route reaches its listener, which answers it (200). Nothing else, ever.
  const answered = (status: number) => status === 200 || status === 400;

  it('broken shortcut, view and block-action payloads are answered at once and enqueue nothing', async () => {
    await h.bot.queue.queue.obliterate({ force: true });
    const junk = fc.oneof(fc.constant(undefined), fc.string({ maxLength: 20 }), fc.integer());
    const shortcuts = fc.sample(
      fc.record({
        // Message shortcuts: Slack sends the global one (New post) only as `type: 'shortcut'`.
        callback: fc.constantFrom(...Object.values(SHORTCUTS).filter((id) => id !== SHORTCUTS.newPost)),
        channel: junk,
        message: fc.oneof(junk, fc.record({ text: fc.string() })),
      }),
      { numRuns: 80, seed: 11 },
    );
    for (const s of shortcuts) {
      const payload = {
        type: 'message_action',
        callback_id: s.callback,
        trigger_id: trigger(),
        team: { id: TEAM },
        user: { id: ADA },
        channel: s.channel,
        message_ts: '1.000100',
        message: s.message,
      };
      const res = await postToBolt(h.baseUrl, h.signingSecret, 'interaction', interactionBody(payload));
      expect(answered(res.status), `${res.status} ${JSON.stringify(payload)}`).toBe(true);
    }
    // The global shortcut: no channel, no message; a broken user or trigger opens nothing.
    const globals = fc.sample(fc.record({ user: fc.record({ id: junk }), trigger: junk }), {
      numRuns: 20,
      seed: 12,
    });
    for (const g of globals) {
      const payload = {
        type: 'shortcut',
        callback_id: SHORTCUTS.newPost,
        trigger_id: g.trigger,
        team: { id: TEAM },
        user: g.user,
      };
      const res = await postToBolt(h.baseUrl, h.signingSecret, 'interaction', interactionBody(payload));
      expect(answered(res.status), `${res.status} ${JSON.stringify(payload)}`).toBe(true);
    }
    const views = fc.sample(
      fc.record({
        callback: fc.constantFrom(VIEWS.createPost, VIEWS.createComment, VIEWS.resolvePost),
        metadata: fc.oneof(fc.string({ maxLength: 60 }), fc.json({ maxDepth: 2 })),
        values: fc.dictionary(
          fc.string({ maxLength: 10 }),
          fc.dictionary(fc.string({ maxLength: 10 }), fc.record({ value: fc.option(fc.string()) })),
        ),
      }),
      { numRuns: 80, seed: 13 },
    );
    for (const v of views) {
      const payload = {
        type: 'view_submission',
        team: { id: TEAM },
        user: { id: ADA, team_id: TEAM },
        view: {
          id: `V${randomBytes(4).toString('hex')}`,
          callback_id: v.callback,
          private_metadata: v.metadata,
          state: { values: v.values },
        },
      };
      const res = await postToBolt(h.baseUrl, h.signingSecret, 'interaction', interactionBody(payload));
      expect(answered(res.status), `${res.status} ${JSON.stringify(payload)}`).toBe(true);
    }
    const clicks = fc.sample(
      fc.record({
        action: fc.constantFrom('post_resolve', 'post_reopen', 'post_comment', 'list_next', 'list_prev'),
        value: fc.oneof(fc.string({ maxLength: 80 }), fc.json({ maxDepth: 2 })),
      }),
      { numRuns: 80, seed: 17 },
    );
    for (const c of clicks) {
      const payload = {
        type: 'block_actions',
        team: { id: TEAM },
        user: { id: ADA },
        trigger_id: trigger(),
        response_url: h.slack.responseUrl(),
        channel: { id: SLACK_CHANNEL },
        container: { type: 'message', channel_id: SLACK_CHANNEL, message_ts: '1.000100' },
        message: { ts: '1.000100' },
        actions: [{ type: 'button', action_id: c.action, block_id: 'b', value: c.value }],
      };
      const res = await postToBolt(h.baseUrl, h.signingSecret, 'interaction', interactionBody(payload));
      expect(answered(res.status), `${res.status} ${JSON.stringify(payload)}`).toBe(true);
    }
    expect((await queuedJobs(h)).map((j) => `${j.name} ${JSON.stringify(j.data)}`)).toEqual([]);
  }, 60_000);

  it('broken event bodies are acked and enqueue nothing', async () => {
    await h.bot.queue.queue.obliterate({ force: true });
    const events = fc.sample(
      fc.record({
        type: fc.constantFrom('message', 'app_home_opened', 'link_shared', 'app_mention', 'x'),
        // A string, as Bolt's routing needs it (a number there is a TypeError in Bolt: see below).
        channel: fc.oneof(fc.constant(SLACK_CHANNEL), fc.string({ maxLength: 12 })),
        user: fc.oneof(fc.constant(ADA), fc.string({ maxLength: 12 }), fc.constant(undefined)),
        text: fc.oneof(fc.string({ maxLength: 200 }), fc.integer()),
        thread_ts: fc.oneof(fc.constant(undefined), fc.string({ maxLength: 12 }), fc.constant('1.000100')),
        links: fc.oneof(fc.constant(undefined), fc.string(), fc.array(fc.record({ url: fc.string() }))),
        ts: fc.oneof(fc.constant(undefined), fc.string({ maxLength: 12 })),
      }),
      { numRuns: 120, seed: 19 },
    );
    for (const event of events) {
      const res = await postToBolt(h.baseUrl, h.signingSecret, 'event', eventBody(event, { team_id: TEAM }));
      expect(res.status, JSON.stringify(event)).toBe(200);
    }
    expect((await queuedJobs(h)).map((j) => `${j.name} ${JSON.stringify(j.data)}`)).toEqual([]);
  }, 60_000);

  it('payloads Bolt itself cannot route (a null channel or user, a numeric channel) get 400 at once, enqueue nothing, and the server keeps answering', async () => {
    await h.bot.queue.queue.obliterate({ force: true });
    // Bolt reads `channel.id` / `user.id` while routing, before any listener or middleware runs:
    // a TypeError there was its receiver's 500. The shape is checked before Bolt sees it now.
    const shortcut = {
      type: 'message_action',
      callback_id: SHORTCUTS.createPostFromMessage,
      trigger_id: trigger(),
      team: { id: TEAM },
      user: { id: ADA },
      channel: null,
      message_ts: '1.000100',
      message: { ts: '1.000100', text: 'hi' },
    };
    const a = await postToBolt(h.baseUrl, h.signingSecret, 'interaction', interactionBody(shortcut));
    const b = await postToBolt(
      h.baseUrl,
      h.signingSecret,
      'event',
      eventBody({ type: 'app_home_opened', user: null, channel: 'D1' } as { type: string }, {
        team_id: TEAM,
      }),
    );
    const c = await postToBolt(
      h.baseUrl,
      h.signingSecret,
      'event',
      eventBody({ type: 'app_mention', channel: 42, text: 'x', ts: '1.1' } as { type: string }, {
        team_id: TEAM,
      }),
    );
    expect([a.status, b.status, c.status]).toEqual([400, 400, 400]);
    expect(await queuedJobs(h)).toEqual([]);
    const help = await postToBolt(
      h.baseUrl,
      h.signingSecret,
      'command',
      slashCommandBody({
        command: '/collab',
        text: 'help',
        user_id: ADA,
        channel_id: SLACK_CHANNEL,
        team_id: TEAM,
        response_url: h.slack.responseUrl(),
        trigger_id: trigger(),
      }),
    );
    expect(help.status).toBe(200);
  });
});
