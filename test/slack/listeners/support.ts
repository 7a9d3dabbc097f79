/**
 * Helpers of the listener tests: one harness per file running the web role alone (no worker),
 * so what a listener enqueued stays in the queue to be read back.
 */
import type { Job } from 'bullmq';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { type Harness, startHarness, TEAM } from '../../support/harness.ts';

export async function startWebHarness(): Promise<Harness> {
  return startHarness({ worker: false });
}

/** A clean queue and Slack stand-in between tests (obliterating it drops the idempotency keys too; keys are unique per test anyway). */
export async function resetHarness(h: Harness): Promise<void> {
  await h.queue.obliterate({ force: true });
  h.slack.reset();
}

/**
 * One web-role harness for the test file: started before its tests (handed to `use`), reset
 * before each test, closed after them all.
 */
export function useWebHarness(use: (h: Harness) => void): void {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startWebHarness();
    use(h);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    if (h) await resetHarness(h);
  });
}

/** Every job in the queue, whatever its state. */
export async function queuedJobs(h: Harness): Promise<Job[]> {
  const jobs = await h.queue.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed']);
  return jobs.filter((job): job is Job => job !== undefined);
}

/** The one job in the queue: asserts there is exactly one. */
export async function onlyJob(h: Harness): Promise<Job> {
  const jobs = await queuedJobs(h);
  expect(jobs.map((job) => job.name)).toHaveLength(1);
  return jobs[0]!;
}

export async function expectNothingQueued(h: Harness): Promise<void> {
  expect((await queuedJobs(h)).map((job) => `${job.name} ${JSON.stringify(job.data)}`)).toEqual([]);
}

/** The job an idempotency key was queued as (the queue holds the key a day). */
export function jobIdOf(
  h: Harness,
  idempotencyKey: string,
  teamId: string = TEAM,
): Promise<string | undefined> {
  return h.bot.queue.jobIdOf(teamId, idempotencyKey);
}

/** Bolt's JSON ack of a command or a view submission. */
export interface AckBody {
  response_type?: string;
  text?: string;
  blocks?: Array<{ type: string; text?: { text: string }; elements?: Array<{ text: string }> }>;
  response_action?: string;
  errors?: Record<string, string>;
  options?: Array<{ text: { text: string }; value: string }>;
}

/** All the text an ack or message shows: `text` and the text of its blocks. */
export function shownText(body: AckBody): string {
  const parts = [body.text ?? ''];
  for (const block of body.blocks ?? []) {
    if (block.text?.text) parts.push(block.text.text);
    for (const element of block.elements ?? []) parts.push(element.text);
  }
  return parts.join('\n');
}
