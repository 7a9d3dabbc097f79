/**
 * Resolving and reopening a post are sent with no step of the log (sending them again changes
 * nothing), so nothing marks their send. Found by the fault suite (seed 917362136): a resolve
 * whose job stalled more often than allowed was told "Could not resolve the post … Try again"
 * although one of its runs had resolved it. A run that stopped, or whose answer was lost, may
 * have sent it: the person hears "may have gone through", never "could not". (A job of theirs
 * that stalls out runs once more: stalledPartWay.test.ts.)
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../src/store/keys.ts';
import { originOf, responseTexts, run } from '../jobs/helpers.ts';
import { type Harness, startHarness, TEAM } from '../support/harness.ts';

const RESOLUTION = 'POST /v2/posts/{post_id}/resolution';
const REOPEN = 'DELETE /v2/posts/{post_id}/resolution';

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

  /** Reopens a resolved post through the worker, every reopen after `lost` refused: the job fails, the one warning told. */
  const reopenFailed = async (text: string, lost: { route: string; times: number }) => {
    const { org, post } = openPost(text);
    org.resolvePost(post.author, post.id, { content_markdown: 'resolved before the reopen' });
    h.emulator.faults.add({ ...lost, drop: 'afterApply' });
    h.emulator.faults.add({ route: REOPEN, times: Infinity, status: 503 });
    const origin = originOf(h);
    expect((await run(h, 'unresolvePost', { origin, post: { id: post.id } })).state).toBe('failed');
    const finals = responseTexts(h, origin).filter((t) => t.startsWith(':warning:'));
    expect(finals).toHaveLength(1);
    return { told: finals[0]!, resolution: org.posts.get(post.id)?.resolution };
  };

  it('a reopen whose answer was lost, then refused on every retry, is told it may have gone through', async () => {
    const { told, resolution } = await reopenFailed('a post reopened once, its answer lost', {
      route: REOPEN,
      times: 1,
    });
    expect(resolution).toBeNull();
    expect(told).toContain('may have gone through');
  }, 30_000);

  it('a reopen whose look before it lost its answer, then refused on every retry, is told it could not', async () => {
    // The look (the post, before reopening it) loses its answer: nothing was sent.
    const { told, resolution } = await reopenFailed('a resolved post, its look lost', {
      route: 'GET /v2/posts/{id}',
      times: Infinity,
    });
    expect(resolution).toBeTruthy();
    expect(told).toContain('Could not reopen the post');
    expect(told).not.toContain('may have gone through');
  }, 30_000);

  it('that landed, then what comes after it failed on every attempt, is told it went through', async () => {
    const { org, post } = openPost('a post resolved, its cards unreadable');
    // The post's card set holds a string: the post-change script fails (WRONGTYPE) on every run,
    // after the resolve has landed. From a modal, whose outcome is told inside the run (a slash
    // command's is told after its job completes: below).
    await h.bot.store.redis.set(keys({ prefix: h.prefix }, TEAM).postCards(post.id), 'not a set');
    const origin = originOf(h, { source: 'modal' });
    const told = await resolvedYetFailed(org, post.id, origin);
    // Retried first, and the notice does not blame the service for what failed on our side.
    expect(responseTexts(h, origin)[0]).toMatch(
      /^:hourglass_flowing_sand: Something went wrong on our side; I will resolve the post again at/,
    );
    expect(told).toContain('I did resolve the post');
    expect(told).toContain('It went through');
    expect(told).not.toContain('Could not resolve');
  }, 30_000);

  it('by a slash command, its cards unreadable once it completed: the person still hears it resolved, once', async () => {
    const { org, post } = openPost('a post resolved by command, its cards unreadable');
    // The telling's mark, which leaves with the job's completion, fails (WRONGTYPE) after the job
    // has completed: the cards stay as they were, and the outcome is told all the same.
    await h.bot.store.redis.set(keys({ prefix: h.prefix }, TEAM).postCards(post.id), 'not a set');
    const origin = originOf(h);
    expect((await run(h, 'resolvePost', { origin, post: { id: post.id } })).state).toBe('completed');
    expect(org.posts.get(post.id)?.resolution).toBeTruthy();
    const told = responseTexts(h, origin);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/^:white_check_mark: Resolved/);
  }, 30_000);
});
