/**
 * A slash command's outcome is told once its job has completed, the telling's mark leaving with
 * the completion (engine/tellAfterCompletion.ts). A worker that stops between the completion and the
 * telling leaves the outcome in its shard's index of pending tellings: another worker's sweep
 * tells it, once; a worker still telling (Slack slow to answer) keeps its telling to itself.
 *
 * The workers are child processes started as docs/operations.md says (ROLE=worker); the Slack stand-in
 * holds the outcome unanswered — a message Slack never got — while one is killed. The web role is
 * this process's. A 1 s lock: the grace before a sweep tells again is the lock's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleProcess } from '../faults/support/role-process.ts';
import { callsOf } from '../jobs/helpers.ts';
import { ADA, type Harness, startHarness } from '../support/harness.ts';
import { finalsAt } from './stalling.ts';

const RESOLUTION = 'POST /v2/posts/{post_id}/resolution';

describe("a slash command's outcome, told after its job completed", () => {
  let h: Harness;
  let first: ReturnType<typeof roleProcess>;
  let second: ReturnType<typeof roleProcess>;
  const up = new Set<ReturnType<typeof roleProcess>>();
  /** Starts the worker unless it runs already. */
  const running = async (worker: ReturnType<typeof roleProcess>) => {
    if (up.has(worker)) return;
    await worker.start();
    up.add(worker);
  };
  beforeAll(async () => {
    h = await startHarness({ worker: false, env: { JOB_LOCK_MS: '1000' } });
    first = roleProcess('worker', { ...h.peerEnv, LOG_LEVEL: 'info' });
    second = roleProcess('worker', { ...h.peerEnv, LOG_LEVEL: 'info' });
  }, 60_000);
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await h?.close();
  });

  const openPost = (text: string) => {
    const org = h.emulator.org();
    const someone = org.authorOf([...org.members.values()].find((m) => !m.is_deactivated)!);
    const support = [...org.channels.values()].find((c) => c.name === 'support')!;
    return org.createPost(someone, { content_markdown: text, channel_id: support.id });
  };
  const resolutionsOf = (postId: string) =>
    h.emulator.received.filter((r) => r.route === RESOLUTION && r.path.includes(postId));
  /**
   * `/collab resolve` of a new post, its outcome held by the stand-in (never answered, never
   * recorded); resolves once its job has completed, with what the worker sent.
   */
  const resolveHeld = async (text: string) => {
    const post = openPost(text);
    const held = h.slack.holdNextResponse((args) => String(args.text).startsWith(':white_check_mark:'));
    const settled = h.nextSettled('resolvePost');
    expect((await h.command(`resolve ${post.id}`)).status).toBe(200);
    const lost = await held;
    // Completed before it was told: the job never runs again.
    expect((await settled).state).toBe('completed');
    return { post, lost };
  };

  it('is told by another worker, once, when its worker was killed before Slack had it', async () => {
    await running(first);
    const { post, lost } = await resolveHeld('resolved, its worker killed before telling');
    await first.kill();
    up.delete(first);
    await running(second);

    const text = String(lost.text);
    const told = await h.slack.waitFor((call) => call.args.text === text, { timeoutMs: 30_000 });
    expect(told.args.replace_original).toBe(true);
    await second.logged(/told the outcome of a job whose worker stopped before telling it/);
    // The one outcome on the command's note: the held one never reached Slack.
    expect(finalsAt(h, { responseId: told.path!.slice('/response/'.length) })).toEqual([text]);
    expect(text).toMatch(/^:white_check_mark: Resolved/);
    // Resolved once: the job completed, and nothing ran it again.
    expect(resolutionsOf(post.id)).toHaveLength(1);
  }, 60_000);

  it('is left to a worker still telling it, however long Slack takes', async () => {
    // Two workers; the one that tells waits on Slack's answer (5 s) far past the 1 s grace.
    await Promise.all([running(first), running(second)]);
    const { post, lost } = await resolveHeld('resolved, told slowly');
    // The response_url never answers: the worker that tells gives up on it and tells the person
    // with an ephemeral message instead — the one telling there is.
    const ephemeral = await h.slack.waitFor(
      (call) => call.method === 'chat.postEphemeral' && call.args.text === lost.text,
      { timeoutMs: 30_000 },
    );
    expect(ephemeral.args.user).toBe(ADA);
    expect(h.slack.responseUrlCalls.filter((call) => call.args.text === lost.text)).toEqual([]);
    expect(callsOf(h, 'chat.postEphemeral').filter((c) => c.args.text === lost.text)).toHaveLength(1);
    expect(resolutionsOf(post.id)).toHaveLength(1);
  }, 60_000);
});
