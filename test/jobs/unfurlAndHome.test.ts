/**
 * Link unfurls and App Home through the real Bolt endpoint: signed `link_shared` and
 * `app_home_opened` events in; `chat.unfurl` and `views.publish` recorded by the Slack stand-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestSchedulerId } from '../../src/jobs/digestSchedules.ts';
import { ORG_SLUG } from '../../src/sandbox/emulator/index.ts';
import { linkShared, nextTs } from '../../src/sandbox/slack/index.ts';
import { ADA, type Harness, SLACK_CHANNEL, startHarness, TEAM } from '../support/harness.ts';
import {
  blockText,
  callsOf,
  channelId,
  linkToEngineering,
  memberId,
  openHome,
  originOf,
  run,
} from './helpers.ts';

function seedPost(h: Harness, title: string) {
  const org = h.emulator.org();
  const author = org.authorOf(org.members.get(memberId(h, 'grace@example.com'))!);
  const post = org.createPost(author, {
    content_markdown: `About ${title}`,
    title,
    channel_id: channelId(h, 'engineering'),
  });
  return { id: post.id, url: `${h.emulator.url}/${ORG_SLUG}/posts/${post.id}` };
}

/** A link shared on a message, unfurled by its job (the listener's part is tested above). */
function unfurl(h: Harness, ts: string, url: string) {
  return run(h, 'unfurlLinks', {
    teamId: TEAM,
    slackChannel: SLACK_CHANNEL,
    messageTs: ts,
    links: [{ url, domain: new URL(url).host }],
  });
}

describe('link unfurls', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      env: { COLLAB_POST_URL_PATTERN: `^http://127\\.0\\.0\\.1:\\d+/${ORG_SLUG}/posts/([0-9a-z]+)$` },
    });
  });
  afterAll(() => h?.close());

  it('unfurls a url the bot has seen with the post card', async () => {
    const post = seedPost(h, 'Seen before');
    await h.bot.store.urls.remember(TEAM, post.url, post.id);
    const ts = nextTs();
    await h.event({
      ...linkShared({ channel: SLACK_CHANNEL, user: ADA, message_ts: ts, links: [post.url] }),
    });
    const call = await h.slackCall((c) => c.method === 'chat.unfurl' && c.args.ts === ts);
    expect(call.args.channel).toBe(SLACK_CHANNEL);
    const unfurl = (call.args.unfurls as Record<string, { blocks: unknown }>)[post.url];
    const text = blockText(unfurl?.blocks);
    expect(text).toContain('Seen before');
    expect(text).toContain('#engineering');
    expect(text).toContain('Grace');
    expect(text).toContain(`/collab resolve ${post.id}`);
    expect(JSON.stringify(unfurl?.blocks)).not.toContain('"actions"');
  });

  it('unfurls a url matching COLLAB_POST_URL_PATTERN', async () => {
    const post = seedPost(h, 'Matched by the pattern');
    const ts = nextTs();
    await h.event({
      ...linkShared({ channel: SLACK_CHANNEL, user: ADA, message_ts: ts, links: [post.url] }),
    });
    const call = await h.slackCall((c) => c.method === 'chat.unfurl' && c.args.ts === ts);
    expect(blockText((call.args.unfurls as Record<string, { blocks: unknown }>)[post.url]?.blocks)).toContain(
      'Matched by the pattern',
    );
  });

  it('updates the unfurl in place when the bot resolves the post, and again when it reopens it', async () => {
    const post = seedPost(h, 'Unfurled while open');
    await h.bot.store.urls.remember(TEAM, post.url, post.id);
    const ts = nextTs();
    expect((await unfurl(h, ts, post.url)).state).toBe('completed');
    const shown = () =>
      callsOf(h, 'chat.unfurl')
        .filter((c) => c.args.channel === SLACK_CHANNEL && c.args.ts === ts)
        .map((c) => blockText((c.args.unfurls as Record<string, { blocks: unknown }>)[post.url]?.blocks));
    expect(shown()).toHaveLength(1);
    expect(shown()[0]).toContain('Open');
    expect(shown()[0]).toContain(`/collab resolve ${post.id}`);

    expect((await run(h, 'resolvePost', { origin: originOf(h), post: { id: post.id } })).state).toBe(
      'completed',
    );
    // The same message's unfurl, not a new one: Slack replaces the unfurl of a url it is given again.
    expect(shown()).toHaveLength(2);
    expect(shown()[1]).toContain('Resolved');
    expect(shown()[1]).toContain('Unfurled while open');
    // A resolved post's hint offers what can still be done to it: reopen, not resolve.
    expect(shown()[1]).toContain(`/collab reopen ${post.id}`);
    expect(shown()[1]).not.toContain(`/collab resolve ${post.id}`);

    expect((await run(h, 'unresolvePost', { origin: originOf(h), post: { id: post.id } })).state).toBe(
      'completed',
    );
    expect(shown()).toHaveLength(3);
    expect(shown()[2]).toContain('Open');
    expect(shown()[2]).toContain(`/collab resolve ${post.id}`);
    expect(shown()[2]).not.toContain(`/collab reopen ${post.id}`);
  });

  it('forgets an unfurl whose message is gone', async () => {
    const post = seedPost(h, 'Unfurled, then deleted');
    await h.bot.store.urls.remember(TEAM, post.url, post.id);
    const ts = nextTs();
    expect((await unfurl(h, ts, post.url)).state).toBe('completed');
    const count = () => callsOf(h, 'chat.unfurl').filter((c) => c.args.ts === ts).length;
    h.slack.failNext('chat.unfurl', 'message_not_found');
    await run(h, 'resolvePost', { origin: originOf(h), post: { id: post.id } });
    expect(count()).toBe(2);
    await run(h, 'unresolvePost', { origin: originOf(h), post: { id: post.id } });
    expect(count()).toBe(2);
  });

  it('stays silent for an unknown url and for a post it cannot read', async () => {
    const before = h.slack.calls.length;
    for (const url of [
      'https://collab.example.com/elsewhere/42',
      `${h.emulator.url}/${ORG_SLUG}/posts/doesnotexist`,
    ]) {
      const settled = h.nextSettled('unfurlLinks');
      await h.event({
        ...linkShared({ channel: SLACK_CHANNEL, user: ADA, message_ts: nextTs(), links: [url] }),
      });
      expect((await settled).state).toBe('completed');
    }
    const after = h.slack.calls.slice(before).map((c) => c.method);
    expect(after).not.toContain('chat.unfurl');
    expect(after).not.toContain('chat.postMessage');
    expect(after).not.toContain('chat.postEphemeral');
  });
});

describe('App Home', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.close());

  it('publishes connection, linked channel, digest next run and a failed operation with its reason', async () => {
    await linkToEngineering(h, SLACK_CHANNEL);
    const digest = await h.bot.store.digests.create(TEAM, {
      slackChannel: SLACK_CHANNEL,
      pattern: '0 9 * * 1-5',
      label: 'every weekday at 09:00',
      tz: 'Europe/Paris',
      createdBy: ADA,
      createdAt: new Date().toISOString(),
    });
    await h.bot.schedules.upsert(
      digestSchedulerId(TEAM, digest.id),
      { pattern: digest.pattern, tz: digest.tz },
      'sendDigest',
      {
        teamId: TEAM,
        digestId: digest.id,
      },
    );
    const next = (await h.bot.schedules.get(digestSchedulerId(TEAM, digest.id)))?.next;
    expect(next).toBeDefined();
    // A failed operation of Ada's: resolving a post that does not exist.
    const failed = await run(h, 'resolvePost', { origin: originOf(h), post: { id: 'pst_missing' } });
    expect(failed.state).toBe('failed');

    const { text, blocks } = await openHome(h, ADA, 'Digests');
    expect(text).toContain('The service answers and accepts the API key');
    expect(text).toContain(`<#${SLACK_CHANNEL}> → *#engineering*`);
    expect(text).toContain(`\`${digest.id}\` in <#${SLACK_CHANNEL}>: every weekday at 09:00 (Europe/Paris)`);
    expect(text).toContain(`next <!date^${Math.floor(next! / 1000)}^`);
    expect(text).toMatch(/:warning: .*could not resolve the post: No post with id `pst_missing`/);
    expect(JSON.stringify(blocks)).toContain('home_new_post');
    // The service check ran in the worker, not in the listener, and is cached a minute.
    expect(h.emulator.received.filter((r) => r.route === 'GET /v2/channels')).toHaveLength(1);
    expect(callsOf(h, 'views.publish').length).toBeGreaterThanOrEqual(2);
  });
});
