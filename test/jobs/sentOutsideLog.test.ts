/**
 * Resolving and reopening a post are sent with no step of the log (sending them again changes
 * nothing), so nothing marks their send. Found by the fault suite (seed 917362136): a resolve
 * whose job stalled more often than allowed was told "Could not resolve the post … Try again"
 * although one of its runs had resolved it. A run that stopped, or whose answer was lost, may
 * have sent it: the person hears "may have gone through", never "could not". A job that stalled
 * out asks the service first: a post that shows what was asked for is told as done.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/store/keys.ts';
import { type Harness, startHarness, TEAM } from '../support/harness.ts';
import { blockText, originOf, postWithCard, responseTexts, run, unique, updatesOf } from './helpers.ts';

const RESOLUTION = 'POST /v2/posts/{post_id}/resolution';

describe('an operation sent outside the step log', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  const openPost = (text: string) => {
    const org = h.emulator.org();
    const someone = org.authorOf([...org.members.values()].find((m) => !m.is_deactivated)!);
    const support = [...org.channels.values()].find((c) => c.name === 'support')!;
    return { org, post: org.createPost(someone, { content_markdown: text, channel_id: support.id }) };
  };

  /**
   * Runs the resolve (or reopen) through the worker, then fails its job as BullMQ's stalled check
   * fails a job whose runs were all killed: its log holds no step (nothing marks the send), its
   * outcome never told. `between` changes the service before the stall is told. Answers the one
   * message told for the stall.
   */
  const lookUpsOf = (postId: string) =>
    h.emulator.received.filter((r) => r.route === 'GET /v2/posts/{id}' && r.path === `/v2/posts/${postId}`)
      .length;

  const stalledOut = async (
    operation: 'resolvePost' | 'unresolvePost',
    postId: string,
    between: () => unknown = () => {},
  ) => {
    const origin = originOf(h);
    const { state, job } = await run(h, operation, { origin, post: { id: postId } });
    expect(state).toBe('completed');
    (job.progress as { steps: Record<string, unknown> }).steps = {};
    await between();
    const before = responseTexts(h, origin).length;
    const path = `/response/${origin.responseId}`;
    const told = h.slack.waitFor((c) => c.path === path && responseTexts(h, origin).length > before);
    const lookUpsBefore = lookUpsOf(postId);
    h.worker!.emit('failed', job, new Error('job stalled more than allowable limit'), 'active');
    const call = await told;
    return {
      call,
      text: String(call.args.text),
      lookUps: () => lookUpsOf(postId) - lookUpsBefore,
    };
  };

  it('that stalled out, the service showing it resolved, updates its cards and is told it was resolved', async () => {
    const { post, card, title } = await postWithCard(h, unique('Stalled resolve'));
    const updates = () => updatesOf(h, card);
    let updatesBefore = 0;
    const { call, text, lookUps } = await stalledOut('resolvePost', post.id, () => {
      updatesBefore = updates().length;
    });
    // The service was asked, and its answer is what a finished run would have shown and told.
    expect(lookUps()).toBe(1);
    expect(text).toContain('Resolved');
    expect(text).toContain(title);
    expect(text).not.toContain('may have gone through');
    expect(call.args.replace_original).toBe(true);
    const changed = updates().slice(updatesBefore);
    expect(changed).toHaveLength(1);
    expect(blockText(changed[0]?.args.blocks)).toContain('*Resolved* by *Ada Lovelace* via Slack');
  });

  it('that stalled out, found done but its cards unreadable, is told it may have gone through', async () => {
    const { post } = openPost('a post resolved, its cards unreadable when the stall is told');
    // The post's card set holds a string: showing the change fails (WRONGTYPE) before any telling.
    const { text } = await stalledOut('resolvePost', post.id, () =>
      h.bot.store.redis.set(keys({ prefix: h.prefix }, TEAM).postCards(post.id), 'not a set'),
    );
    expect(text).toContain('may have gone through');
  });

  it('that stalled out, the service showing it reopened, is told it was reopened', async () => {
    const { org, post } = openPost('a post reopened by a run that then stalled out');
    org.resolvePost(org.authorOf([...org.members.values()].find((m) => !m.is_deactivated)!), post.id, {});
    const { text } = await stalledOut('unresolvePost', post.id);
    expect(text).toContain('Reopened');
    expect(text).not.toContain('may have gone through');
  });

  it('that stalled out, the post not showing it, is told it may have gone through, not "try again"', async () => {
    const { org, post } = openPost('a post reopened before the stall was told');
    // An open post after a resolve proves nothing (a frozen run may still send it): no "failed".
    const { text, lookUps } = await stalledOut('resolvePost', post.id, () => org.unresolvePost(post.id));
    expect(lookUps()).toBe(1);
    expect(text).toContain('may have gone through');
    expect(text).not.toContain('Try again');
  });

  it('that stalled out while the service does not answer is told it may have gone through', async () => {
    const { post } = openPost('a post resolved, the service gone when the stall is told');
    const { text } = await stalledOut('resolvePost', post.id, () =>
      h.emulator.faults.add({ route: 'GET /v2/posts/{id}', times: Infinity, status: 503 }),
    );
    expect(text).toContain('may have gone through');
    expect(text).not.toContain('Try again');
  });

  /** Resolves the post through the worker; the job fails with the post resolved: the one warning told. */
  const resolvedYetFailed = async (
    org: ReturnType<Harness['emulator']['org']>,
    postId: string,
    origin = originOf(h),
  ) => {
    const { state } = await run(h, 'resolvePost', { origin, post: { id: postId } });
    expect(state).toBe('failed');
    expect(org.posts.get(postId)?.resolution).toBeTruthy();
    const finals = responseTexts(h, origin).filter((t) => t.startsWith(':warning:'));
    expect(finals).toHaveLength(1);
    return finals[0]!;
  };

  it('whose answer was lost, then refused on every retry, is told it may have gone through', async () => {
    const { org, post } = openPost('a post resolved once, its answer lost');
    // The first resolve is applied and its connection dropped; every later send is refused.
    h.emulator.faults.add({ route: RESOLUTION, times: 1, drop: 'afterApply' });
    h.emulator.faults.add({ route: RESOLUTION, times: Infinity, status: 503 });
    const told = await resolvedYetFailed(org, post.id);
    expect(told).toContain('may have gone through');
    expect(told).not.toContain('Could not resolve the post: the service');
  }, 30_000);

  it('that landed, then what comes after it failed on every attempt, is told it went through', async () => {
    const { org, post } = openPost('a post resolved, its cards unreadable');
    // The post's card set holds a string: the post-change script fails (WRONGTYPE) on every run,
    // after the resolve has landed.
    await h.bot.store.redis.set(keys({ prefix: h.prefix }, TEAM).postCards(post.id), 'not a set');
    const origin = originOf(h);
    const told = await resolvedYetFailed(org, post.id, origin);
    // Retried first, and the notice does not blame the service for what failed on our side.
    expect(responseTexts(h, origin)[0]).toMatch(
      /^:hourglass_flowing_sand: Something went wrong on our side; I will resolve the post again at/,
    );
    expect(told).toContain('I did resolve the post');
    expect(told).toContain('It went through');
    expect(told).not.toContain('Could not resolve');
  }, 30_000);
});
