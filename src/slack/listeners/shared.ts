/**
 * What every listener does the same way: enqueue an operation without ever throwing, answer
 * when the queue is away, and look things up in Slack within a deadline (a modal's trigger_id
 * lives 3 s; a name or a permalink is never worth missing it).
 *
 * Telling: a listener answers the interaction in hand with Bolt's `ack` (a slash command's
 * ephemeral reply, a modal's errors); anything told to the person beyond that goes through
 * `tellNow` (engine/tellNow.ts, the engine's one entry for listeners), the ways every outcome
 * is told.
 */
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import type { JobInput, Operation } from '../../operations/schemas.ts';
import type { SlackNames } from '../../render/slackMarkdown.ts';
import type { ListenerDeps } from './deps.ts';

/** Said when Redis does not answer; `problem()` adds the :warning:. */
export const QUEUE_DOWN = "I can't reach my job queue right now, so nothing was done. Try again in a minute.";

export const NOT_UNDERSTOOD = 'Slack sent me something I could not read, so nothing was done.';
export const NOT_UNDERSTOOD_HINT = 'Try again; if it keeps happening, tell whoever runs this app.';

export const STORE_DOWN =
  "I can't reach my memory (Redis) right now, so nothing was done. Try again in a minute.";

export type EnqueueOutcome =
  | { status: 'queued' | 'duplicate'; jobId: string }
  /** Redis did not answer: nothing was queued */
  | { status: 'unavailable' }
  /** the job data did not validate (a malformed payload got this far): nothing was queued */
  | { status: 'invalid' };

/**
 * Enqueues one operation; never throws. The job data is validated once, by the queue's enqueue
 * (operations' schemas): its ZodError says the data was malformed, anything else that the queue
 * is away.
 */
export async function enqueue<O extends Operation>(
  deps: Pick<ListenerDeps, 'queue' | 'logger'>,
  operation: O,
  data: JobInput<O>,
  idempotencyKey: string,
): Promise<EnqueueOutcome> {
  try {
    return await deps.queue.enqueue(operation, data, { idempotencyKey });
  } catch (error) {
    if (error instanceof z.ZodError) {
      deps.logger.warn(
        { operation, issues: error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) },
        'job data did not validate; nothing enqueued',
      );
      return { status: 'invalid' };
    }
    deps.logger.error({ err: error, operation }, 'could not enqueue');
    return { status: 'unavailable' };
  }
}

/** The work's result, or undefined when it fails or takes longer than `ms`. */
export async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work.catch(() => undefined), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long modal openers wait on Slack lookups before opening with what they have. */
export const LOOKUP_DEADLINE_MS = 1200;
const NAME_TTL_SECONDS = 3600;
const MAX_LOOKUPS = 25;

/**
 * Display names of the people mentioned in Slack text (`<@U123>`), from a short Redis cache or
 * `users.info`, within `ms`. Whatever is not known by then reads as the raw id.
 */
export async function slackNames(
  client: WebClient,
  deps: Pick<ListenerDeps, 'store'>,
  teamId: string,
  text: string,
  ms: number,
): Promise<SlackNames> {
  const names = new Map<string, string>();
  const ids = [...new Set([...text.matchAll(/<@([UW][A-Z0-9_]+)(?:\|[^>]*)?>/g)].map((m) => m[1]!))].slice(
    0,
    MAX_LOOKUPS,
  );
  const lookup = async (userId: string) => {
    const cacheKey = `slack-user-name:${userId}`;
    const cached = await deps.store.cache.get<string>(teamId, cacheKey);
    if (typeof cached === 'string' && cached !== '') {
      names.set(userId, cached);
      return;
    }
    const answer = await client.users.info({ user: userId });
    const user = answer.user;
    const name = user?.profile?.display_name || user?.real_name || user?.name;
    if (!name) return;
    names.set(userId, name);
    await deps.store.cache.set(teamId, cacheKey, name, NAME_TTL_SECONDS);
  };
  if (ids.length > 0) {
    await withDeadline(Promise.allSettled(ids.map(lookup)), ms);
  }
  return { user: (userId) => names.get(userId) };
}

/** The permalink of a Slack message, or undefined if Slack does not give it within `ms`. */
export async function permalinkOf(
  client: WebClient,
  slackChannel: string,
  ts: string,
  ms: number,
): Promise<string | undefined> {
  const answer = await withDeadline(client.chat.getPermalink({ channel: slackChannel, message_ts: ts }), ms);
  return typeof answer?.permalink === 'string' ? answer.permalink : undefined;
}

/** The text of the post links in Slack text (`<https://…>` or `<https://…|label>`). */
export function linksIn(text: string): string[] {
  return [...new Set([...text.matchAll(/<(https?:\/\/[^|>\s]+)(?:\|[^>]*)?>/g)].map((m) => m[1]!))];
}
