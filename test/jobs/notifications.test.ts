/**
 * Personal notifications through signed slash commands and the App Home button into the real bot
 * and worker: a person with notifications on hears by DM, with the post's card, when a post they
 * created from Slack — or one their member wrote — is commented on or resolved, once per change;
 * during their quiet hours (in their own time zone) it is held and sent as one summary.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isQuiet } from '../../src/jobs/notifications.ts';
import { schedulerId } from '../../src/jobs/schedules.ts';
import { ACTIONS } from '../../src/render/ids.ts';
import { makeSlackUser, type RecordedCall } from '../../src/sandbox/slack/index.ts';
import { type Harness, startHarness, TEAM } from '../support/harness.ts';
import { blockText, callsOf, memberId, originOf, run, unique } from './helpers.ts';

/** An `Etc/GMT…` zone whose clock now reads an hour that is quiet (or not). */
function zoneWhere(quiet: boolean): string {
  for (let offset = -12; offset <= 14; offset++) {
    const tz = offset === 0 ? 'UTC' : offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
    // Away from the edges, so the test does not straddle 08:00 or 22:00.
    const soon = Date.now() + 10 * 60_000;
    if (
      isQuiet(tz) === quiet &&
      isQuiet(tz, soon) === quiet &&
      isQuiet(tz, Date.now() - 10 * 60_000) === quiet
    )
      return tz;
  }
  throw new Error('no zone found');
}

describe('personal notifications', () => {
  let h: Harness;
  const awake = zoneWhere(false);
  const asleep = zoneWhere(true);
  beforeAll(async () => {
    h = await startHarness({
      env: { FEED_POLL_INTERVAL_MS: '3600000' },
      slackUsers: [
        makeSlackUser({
          id: 'U_ADA',
          name: 'ada',
          real_name: 'Ada Lovelace',
          email: 'ada@example.com',
          tz: asleep,
          is_admin: true,
        }),
        makeSlackUser({
          id: 'U_GRACE',
          name: 'grace',
          real_name: 'Grace Hopper',
          email: 'grace@example.com',
          tz: awake,
        }),
      ],
    });
  });
  afterAll(() => h.close());

  const actor = (email: string) => h.emulator.org().actAs(memberId(h, email));
  const dmsTo = (userId: string): RecordedCall[] =>
    callsOf(h, 'chat.postMessage').filter(
      (c) => c.args.channel === userId || c.args.channel === `D_${userId}`,
    );

  async function followedChannel() {
    const name = `ntf-${randomBytes(3).toString('hex')}`;
    const channel = h.emulator.org().addChannel(name, new Date(Date.now() - 86_400_000)).id;
    const slackChannel = `C_${name.replace('-', '_').toUpperCase()}`;
    expect(
      (
        await run(h, 'linkChannel', {
          origin: originOf(h, { slackChannel }),
          channel: { id: channel },
          bridgeReplies: false,
        })
      ).state,
    ).toBe('completed');
    const tick = h.nextSettled('pollFeed');
    expect((await run(h, 'followChannel', { origin: originOf(h, { slackChannel }) })).state).toBe(
      'completed',
    );
    await tick;
    return { slackChannel, channel };
  }

  async function command(text: string, user: string, channel: string, operation: string) {
    const settled = h.nextSettled(operation);
    expect((await h.command(text, { user, channel })).status).toBe(200);
    const done = await settled;
    expect(done.state).toBe('completed');
    return done.job;
  }

  const poll = async (slackChannel: string) =>
    expect((await run(h, 'pollFeed', { teamId: TEAM, slackChannel })).state).toBe('completed');

  it('a post created from Slack: one DM with its card per change, in waking hours', async () => {
    const { slackChannel } = await followedChannel();
    await command('notify on', 'U_GRACE', slackChannel, 'setNotify');
    await h.slackCall(
      (c) => c.method === 'response_url' && blockText(c.args.blocks).includes('Notifications on'),
    );
    const title = unique('Grace asks');
    await command(`post ${title} | Can someone look?`, 'U_GRACE', slackChannel, 'createPost');
    const post = [...h.emulator.org().posts.values()].find((p) => p.title === title)!;
    expect(post).toBeDefined();

    actor('ada@example.com').createComment(post.id, { content_markdown: 'On it' });
    await poll(slackChannel);
    const first = dmsTo('U_GRACE');
    expect(first).toHaveLength(1);
    const text = blockText(first[0]!.args.blocks);
    expect(text).toContain('Your post');
    expect(text).toContain(title);
    expect(JSON.stringify(first[0]!.args.blocks)).toContain('"type":"button"');

    await poll(slackChannel);
    expect(dmsTo('U_GRACE')).toHaveLength(1);

    actor('ada@example.com').resolvePost(post.id);
    await poll(slackChannel);
    expect(dmsTo('U_GRACE')).toHaveLength(2);
    expect(blockText(dmsTo('U_GRACE')[1]!.args.blocks).toLowerCase()).toContain('resolved');
  });

  it('a post by their member during quiet hours: held, then one summary when they end', async () => {
    const { slackChannel, channel } = await followedChannel();
    await command('notify on', 'U_ADA', slackChannel, 'setNotify');
    const title = unique('Ada wrote');
    const post = actor('ada@example.com').createPost({ channel_id: channel, title, content_markdown: 'x' });
    await poll(slackChannel); // carded as a new post
    actor('grace@example.com').createComment(post.id, { content_markdown: 'Nice' });
    await poll(slackChannel);
    actor('grace@example.com').resolvePost(post.id);
    await poll(slackChannel);
    expect(dmsTo('U_ADA')).toHaveLength(0);
    expect(await h.bot.store.notifications.heldCount(TEAM, 'U_ADA')).toBe(2);
    const flush = await h.bot.schedules.get(schedulerId(TEAM, 'notify', 'U_ADA'));
    expect(flush).toMatchObject({ pattern: '0 8 * * *', tz: asleep });

    // 08:00 comes (the scheduler's tick): here, Ada's zone moves to one where it is day.
    const settings = await h.bot.store.notifications.get(TEAM, 'U_ADA');
    await h.bot.store.notifications.set(TEAM, 'U_ADA', { ...settings!, tz: awake });
    expect((await run(h, 'flushNotifications', { teamId: TEAM, userId: 'U_ADA' })).state).toBe('completed');
    const summary = dmsTo('U_ADA');
    expect(summary).toHaveLength(1);
    expect(blockText(summary[0]!.args.blocks)).toContain('While you were away* (2)');
    expect(blockText(summary[0]!.args.blocks)).toContain(title);
    expect(await h.bot.schedules.get(schedulerId(TEAM, 'notify', 'U_ADA'))).toBeUndefined();
    expect((await run(h, 'flushNotifications', { teamId: TEAM, userId: 'U_ADA' })).state).toBe('completed');
    expect(dmsTo('U_ADA')).toHaveLength(1);
  });

  it('notify off stops them; the App Home button turns them on again and shows it', async () => {
    await command('notify off', 'U_GRACE', 'C_ANY', 'setNotify');
    expect((await h.bot.store.notifications.get(TEAM, 'U_GRACE'))?.on).toBe(false);
    const toggled = h.nextSettled('setNotify');
    const res = await h.interact({
      type: 'block_actions',
      user: { id: 'U_GRACE', name: 'grace', team_id: TEAM },
      team: { id: TEAM, domain: 'local' },
      api_app_id: 'A_LOCAL',
      trigger_id: `trig-${randomBytes(4).toString('hex')}`,
      container: { type: 'view', view_id: 'V_HOME' },
      view: { id: 'V_HOME', type: 'home', team_id: TEAM },
      actions: [
        {
          type: 'button',
          action_id: ACTIONS.homeNotify,
          block_id: 'home_notify',
          value: 'on',
          action_ts: '1',
        },
      ],
    });
    expect(res.status).toBe(200);
    expect((await toggled).state).toBe('completed');
    expect((await h.bot.store.notifications.get(TEAM, 'U_GRACE'))?.on).toBe(true);
    const home = callsOf(h, 'views.publish')
      .filter((c) => c.args.user_id === 'U_GRACE')
      .at(-1);
    expect(blockText(home?.args.view)).toContain('Notifications on.');
  });
});
