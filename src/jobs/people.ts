/**
 * Who is who: a Slack user's name (for attribution: every write goes out under the one
 * organisation key, so the words say who wrote it) and the service member with the same email.
 */

import type { Member } from '../collab/schemas.ts';
import { UserError } from '../engine/index.ts';
import { isTimeZone } from '../operations/schedule.ts';
import { escapeMrkdwn } from '../render/text.ts';
import { slackErrorCode } from '../slackapi/errors.ts';
import type { ProcessorContext } from './context.ts';

/** Slack profiles are cached this long. */
const PROFILE_TTL_SECONDS = 3600;
/** …and held in the worker's memory this long, so most operations read no profile from Redis. */
const PROFILE_MEMO_MS = 60_000;

export interface SlackPerson {
  id: string;
  /** real name, else display name, else handle, else the user id */
  name: string;
  email?: string;
  /** false when Slack does not know the user (or could not be asked) */
  known: boolean;
}

/**
 * The profiles being asked of Slack right now, per workspace's client: operations of the same
 * person that run together share one `users.info` call.
 */
const asking = new WeakMap<ProcessorContext['slack'], Map<string, Promise<SlackPerson>>>();

/**
 * A Slack user's name and email, from `users.info`, cached an hour. A Slack failure never fails
 * the operation: the person is then named by their user id and has no known email.
 */
export async function slackPerson(ctx: ProcessorContext, userId: string): Promise<SlackPerson> {
  const cacheName = `slack-user:${userId}`;
  const cached = await ctx.store.cache.get<SlackPerson>(ctx.teamId, cacheName, { memoMs: PROFILE_MEMO_MS });
  if (cached && typeof cached.name === 'string') return cached;
  let pending = asking.get(ctx.slack);
  if (!pending) {
    pending = new Map();
    asking.set(ctx.slack, pending);
  }
  const inFlight = pending.get(userId);
  if (inFlight) return inFlight;
  const asked = askSlack(ctx, userId, cacheName).finally(() => pending.delete(userId));
  pending.set(userId, asked);
  return asked;
}

async function askSlack(ctx: ProcessorContext, userId: string, cacheName: string): Promise<SlackPerson> {
  try {
    const res = await ctx.slack.users.info({ user: userId });
    const user = res.user;
    const profile = user?.profile;
    const name =
      [profile?.real_name, user?.real_name, profile?.display_name, user?.name]
        .map((n) => n?.trim())
        .find((n): n is string => Boolean(n)) ?? userId;
    const email = profile?.email?.trim();
    const person: SlackPerson = { id: userId, name, known: true, ...(email ? { email } : {}) };
    await ctx.store.cache.set(ctx.teamId, cacheName, person, PROFILE_TTL_SECONDS);
    return person;
  } catch (error) {
    ctx.logger.info({ err: slackErrorCode(error), userId }, 'users.info failed');
    return { id: userId, name: userId, known: false };
  }
}

/** The name a Slack user is shown by in attributions. */
export async function displayName(ctx: ProcessorContext, userId: string): Promise<string> {
  return (await slackPerson(ctx, userId)).name;
}

export type MemberMatch =
  | { ok: true; person: SlackPerson; member: Member }
  | {
      ok: false;
      person: SlackPerson;
      reason: 'unknownUser' | 'noEmail' | 'noMember' | 'deactivated';
    };

/**
 * The service member of a Slack user, by the email of their Slack profile: an exact,
 * case-insensitive match among the members the service's search returns. An active member
 * wins over a deactivated one with the same email.
 */
export async function memberOf(ctx: ProcessorContext, userId: string): Promise<MemberMatch> {
  const person = await slackPerson(ctx, userId);
  if (!person.known) return { ok: false, person, reason: 'unknownUser' };
  if (!person.email) return { ok: false, person, reason: 'noEmail' };
  const wanted = person.email.toLowerCase();
  let deactivated = false;
  for await (const member of ctx.collab.allMembers({ search: person.email, limit: 50 })) {
    if (member.user.email?.trim().toLowerCase() !== wanted) continue;
    if (member.is_deactivated) {
      deactivated = true;
      continue;
    }
    return { ok: true, person, member };
  }
  return { ok: false, person, reason: deactivated ? 'deactivated' : 'noMember' };
}

/** A member's name as the service shows it. */
export function memberName(member: Member): string {
  return member.user.display_name?.trim() || member.user.email?.trim() || member.id;
}

/** The members of the named Slack users; all must map, or the person hears who did not and why. */
export async function recipientsOf(ctx: ProcessorContext, slackUserIds: string[]): Promise<Member[]> {
  const matches: MemberMatch[] = [];
  for (const userId of new Set(slackUserIds)) matches.push(await memberOf(ctx, userId));
  const problems = matches.flatMap((m) => (m.ok ? [] : [`• <@${m.person.id}>: ${why(m)}`]));
  if (problems.length > 0) {
    throw new UserError(
      `I could not send the message: not everyone you named is a member of the service.\n${problems.join('\n')}`,
    );
  }
  return matches.flatMap((m) => (m.ok ? [m.member] : []));
}

function why(match: Extract<MemberMatch, { ok: false }>): string {
  const email = match.person.email ? escapeMrkdwn(match.person.email) : '';
  switch (match.reason) {
    case 'unknownUser':
      return 'not found in Slack';
    case 'noEmail':
      return 'no email in their Slack profile';
    case 'noMember':
      return `no member with the email ${email}`;
    case 'deactivated':
      return `the member with the email ${email} is deactivated`;
  }
}

/** The person's Slack time zone (`users.info` `tz`), or undefined when Slack does not say. */
export async function slackTimeZone(ctx: ProcessorContext, userId: string): Promise<string | undefined> {
  try {
    const res = await ctx.slack.users.info({ user: userId });
    const tz = res.user?.tz;
    return typeof tz === 'string' && isTimeZone(tz) ? tz : undefined;
  } catch (error) {
    ctx.logger.info({ err: slackErrorCode(error) }, 'users.info failed; digest time zone falls back to UTC');
    return undefined;
  }
}
