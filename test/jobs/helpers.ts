/**
 * Helpers of the processor tests: jobs enqueued straight into the real queue (the slash command
 * listener is another seam), run by the real worker against the emulator and the Slack stand-in.
 */
import { randomBytes } from 'node:crypto';
import type { Job } from 'bullmq';
import { expect } from 'vitest';
import type { JobInput, Operation, Origin } from '../../src/operations/schemas.ts';
import { ORG_SLUG } from '../../src/sandbox/emulator/index.ts';
import { appHomeOpened, type RecordedCall } from '../../src/sandbox/slack/index.ts';
import { ADA, type Harness, SLACK_CHANNEL, TEAM } from '../support/harness.ts';

/** An origin as the listeners build it; its response_url is served by the Slack stand-in. */
export function originOf(h: Harness, overrides: Partial<Origin> = {}): Origin & { responseId: string } {
  const responseId = `r-${randomBytes(6).toString('hex')}`;
  return {
    teamId: TEAM,
    userId: ADA,
    slackChannel: SLACK_CHANNEL,
    responseUrl: h.slack.responseUrl(responseId),
    receivedAt: Date.now(),
    source: 'command',
    ...overrides,
    responseId,
  };
}

export interface Ran {
  jobId: string;
  state: 'completed' | 'failed';
  job: Job;
}

/** Enqueues one operation and waits until it settles. */
export async function run<O extends Operation>(h: Harness, operation: O, data: JobInput<O>): Promise<Ran> {
  // The job schema drops the helper's `responseId` from the origin, as it drops any unknown field.
  const queued = await h.bot.queue.enqueue(operation, data, {
    idempotencyKey: `test-${randomBytes(8).toString('hex')}`,
  });
  expect(queued.status).toBe('queued');
  const state = await h.settled(queued.jobId);
  const job = await h.bot.queue.queueFor(TEAM).getJob(queued.jobId);
  if (!job) throw new Error(`job ${queued.jobId} is gone`);
  return { jobId: queued.jobId, state, job };
}

/** What was posted to one origin's response_url, in order. */
export function responses(h: Harness, origin: { responseId: string }): RecordedCall[] {
  return h.slack.responseUrlCalls.filter((call) => call.path === `/response/${origin.responseId}`);
}

/** The texts posted to one origin's response_url, in order. */
export function responseTexts(h: Harness, origin: { responseId: string }): string[] {
  return responses(h, origin).map((call) => String(call.args.text ?? ''));
}

/** The Slack Web API calls of one method. */
export function callsOf(h: Harness, method: string): RecordedCall[] {
  return h.slack.calls.filter((call) => call.method === method);
}

/** Every text of a Block Kit structure, joined: what a person would read. */
export function blockText(blocks: unknown): string {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'text' && typeof inner === 'string') out.push(inner);
        else walk(inner);
      }
    }
  };
  walk(blocks);
  return out.join('\n');
}

/** The id of a channel of the emulator's organization, by name. */
export function channelId(h: Harness, name: string): string {
  const channel = [...h.emulator.org().channels.values()].find((c) => c.name === name);
  if (!channel) throw new Error(`no channel ${name}`);
  return channel.id;
}

/** The id of a member of the emulator's organization, by email. */
export function memberId(h: Harness, email: string): string {
  const member = [...h.emulator.org().members.values()].find((m) => m.user.email === email);
  if (!member) throw new Error(`no member ${email}`);
  return member.id;
}

/** Posts the app (the bot's key) made with a content holding `text`. */
export function appPostsWith(h: Harness, text: string) {
  return [...h.emulator.org().posts.values()].filter(
    (p) => p.author.type === 'app' && p.content_markdown.includes(text),
  );
}

export const unique = (label: string) => `${label} ${randomBytes(4).toString('hex')}`;

/** Links a Slack channel to the emulator's `engineering` channel, as `/collab link` would. */
export async function linkToEngineering(h: Harness, slackChannel: string): Promise<void> {
  await h.bot.store.links.set(TEAM, slackChannel, {
    channelId: channelId(h, 'engineering'),
    channelName: 'engineering',
    bridgeReplies: false,
    linkedBy: ADA,
    linkedAt: new Date().toISOString(),
  });
}

/** Opens `user`'s App Home (a signed event) and answers the first view published to them whose text holds `containing`. */
export async function openHome(
  h: Harness,
  user: string,
  containing: string,
): Promise<{ text: string; blocks: unknown }> {
  await h.event({ ...appHomeOpened({ user }) });
  const publish = await h.slackCall(
    (c) =>
      c.method === 'views.publish' &&
      c.args.user_id === user &&
      blockText((c.args.view as { blocks: unknown }).blocks).includes(containing),
  );
  const { blocks } = publish.args.view as { blocks: unknown };
  return { text: blockText(blocks), blocks };
}

/** A post made through createPost in #engineering, so it has a card in Slack: the post, its card, title and url. */
export async function postWithCard(h: Harness, title = unique('Card'), origin = originOf(h)) {
  expect(
    (await run(h, 'createPost', { origin, channel: { name: 'engineering' }, title, content: title })).state,
  ).toBe('completed');
  const post = appPostsWith(h, title)[0]!;
  const [card] = await h.bot.store.cards.cardsOfPost(TEAM, post.id);
  const url = `${h.emulator.url}/${ORG_SLUG}/posts/${post.id}`;
  return { post, card: card!, title, url };
}

/** The chat.update calls of one card message. */
export function updatesOf(h: Harness, card: { slackChannel: string; ts: string }): RecordedCall[] {
  return callsOf(h, 'chat.update').filter(
    (c) => c.args.channel === card.slackChannel && c.args.ts === card.ts,
  );
}

/**
 * `/collab dm` (as Ada) to people who have no thread yet: answers the thread it made, once that
 * thread's first poll (its scheduler's immediate tick) has settled. With long poll intervals in
 * the harness, no later poll of it comes while a test works on it (deletes it, say).
 */
export async function dmToNewThread(
  h: Harness,
  slackUserIds: string[],
  text: string,
  origin: Origin = originOf(h),
): Promise<string> {
  const known = new Set(h.emulator.org().threads.keys());
  const firstPoll = h.nextSettled('pollThread', (job) => !known.has(String(job.data?.threadId)));
  expect((await run(h, 'sendDm', { origin, slackUserIds, text })).state).toBe('completed');
  await firstPoll;
  const sent = [...h.emulator.org().messages.values()].find((m) => m.content_markdown.includes(text));
  if (!sent) throw new Error('the message was not sent');
  expect(known.has(sent.thread_id)).toBe(false);
  return sent.thread_id;
}

/** Poll intervals long enough that a mirrored thread is polled only by its immediate first tick. */
export const RARE_THREAD_POLLS = { THREAD_POLL_ACTIVE_MS: '3600000', THREAD_POLL_IDLE_MS: '7200000' };
