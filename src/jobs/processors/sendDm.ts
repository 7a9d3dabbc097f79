/**
 * sendDm: a direct message from Slack to people of the service, in a thread of the service.
 * The thread of an exact set of members is made once and reused; the sender is in it when
 * they are a member too. A reused thread the service no longer has is forgotten, and a new one
 * made in the same run.
 */
import { type Member, type Message, PAGE_SIZE_MAX, type Thread } from '../../collab/schemas.ts';
import { findSince, tell, UserError } from '../../engine/index.ts';
import type { JobData, Origin } from '../../operations/schemas.ts';
import { success } from '../../render/messages.ts';
import { commandOf, type ProcessorContext } from '../context.ts';
import { noteDmActivity } from '../mirroring.ts';
import { memberName, memberOf, recipientsOf } from '../people.ts';
import { code, ifFound, noThread, noThreadFor, orNotFound } from '../resolveRefs.ts';
import { contentEquals, createdSince, escapeMarkdown } from '../text.ts';

export async function sendDm(data: JobData<'sendDm'>, ctx: ProcessorContext): Promise<void> {
  const { origin } = data;
  const sender = await memberOf(ctx, origin.userId);
  const text = `*${escapeMarkdown(sender.person.name)}* via Slack:\n${data.text}`;

  if ('threadId' in data) {
    ctx.about({ title: `thread ${data.threadId}` });
    const { message, parentGone } = await toNamedThread(ctx, data, text);
    await noteDmActivity(ctx, data.threadId, message);
    if (parentGone) {
      await tell(
        ctx,
        origin,
        success(
          `The message you replied to is gone from the service, so your reply went to its thread ${inlineCode(data.threadId)}.`,
        ),
      );
      return;
    }
    // A Slack reply to a mirrored message is its own record in Slack: success stays quiet.
    if (origin.source === 'event') return;
    await tell(ctx, origin, success(`Sent to thread ${inlineCode(data.threadId)}.`));
    return;
  }

  const recipients = await recipientsOf(ctx, data.slackUserIds);
  const names = uniqueMembers(recipients).map(memberName);
  ctx.about({ title: listOf(names) });
  const members = uniqueMembers([...recipients, ...(sender.ok ? [sender.member] : [])]);
  const memberIds = members.map((m) => m.id);
  const remembered = await ctx.store.threads.threadFor(ctx.teamId, memberIds);
  const reused = remembered === undefined ? undefined : await toRemembered(ctx, remembered, text);
  const notes: string[] = [];
  if (remembered !== undefined && reused === undefined) {
    // Gone from the service: its `message` step was refused (a 404), so it is sent again, to the
    // new thread. A re-run finds the new pairing, or none and makes the thread.
    await ctx.store.threads.forget(ctx.teamId, remembered, memberIds);
    notes.push(
      `The earlier thread with the same people, ${inlineCode(remembered)}, is gone from the service.`,
    );
  }
  const { threadId, message, shortfall } = reused ?? (await toNewThread(ctx, origin, members, text));
  if (shortfall) notes.push(shortfall);
  await noteDmActivity(ctx, threadId, message);

  const sent = `Sent to ${listOf(names)} in thread ${inlineCode(threadId)}.`;
  await tell(ctx, origin, success([sent, ...notes].join(' ')));
}

/**
 * To a thread named by id: typed, or the one a Slack thread mirrors (with the message a reply
 * answers). A 404 is of the thread or of that message: a look at the thread tells which.
 */
async function toNamedThread(
  ctx: ProcessorContext,
  data: { origin: Origin; threadId: string; parentId?: string | undefined },
  text: string,
): Promise<{ message: Message; parentGone?: true }> {
  const { origin, threadId, parentId } = data;
  const sent = await ifFound(() => sendMessage(ctx, threadId, text, parentId));
  if (sent) return { message: sent };
  // The thread is still there (a look at its newest message): the 404 was of the parent.
  if (parentId !== undefined && (await ifFound(() => ctx.collab.listMessages(threadId, { limit: 1 })))) {
    // Its `message` step was refused by the 404: sent again, to the thread itself.
    const message = await orNotFound(
      () => sendMessage(ctx, threadId, text),
      () => noThread(threadId),
    );
    return { message, parentGone: true };
  }
  const known = await ctx.store.threads.origin(ctx.teamId, threadId);
  if (known) await ctx.store.threads.forget(ctx.teamId, threadId, known.memberIds);
  throw new UserError(
    origin.source === 'event'
      ? `The chat thread this conversation goes to, ${code(threadId)}, is gone from the service, so your reply was not sent. To write to the same people, use \`${commandOf(ctx)} dm\`.`
      : noThreadFor(ctx, threadId, origin),
  );
}

interface SentTo {
  threadId: string;
  message: Message;
  /** the service made the thread with fewer of the people than named */
  shortfall?: string;
}

/** Sends to the thread the bot remembers for these people; undefined when the service has lost it. */
async function toRemembered(
  ctx: ProcessorContext,
  threadId: string,
  text: string,
): Promise<SentTo | undefined> {
  const message = await ifFound(() => sendMessage(ctx, threadId, text));
  return message && { threadId, message };
}

/** Makes the thread of these people, remembers it for them, and sends to it. */
async function toNewThread(
  ctx: ProcessorContext,
  origin: Origin,
  members: Member[],
  text: string,
): Promise<SentTo> {
  const memberIds = members.map((m) => m.id);
  // No list-threads endpoint exists to tell whether an ambiguous create landed: a re-run after
  // a dropped answer may make a second thread (harmless: the message is sent only once).
  const thread: Thread = await ctx.once('thread', () =>
    ctx.collab.createThread({
      member_ids: memberIds,
      title: `${members.map(memberName).join(', ')} (from Slack)`,
    }),
  );
  const threadId = thread.id;
  await ctx.store.threads.remember(ctx.teamId, threadId, threadOrigin(origin, memberIds));
  const message = await orNotFound(
    () => sendMessage(ctx, threadId, text),
    () => noThread(threadId),
  );
  const added = thread.members_count;
  if (typeof added === 'number' && added < memberIds.length) {
    return {
      threadId,
      message,
      shortfall: `The service added ${added} of the ${memberIds.length} people you named.`,
    };
  }
  return { threadId, message };
}

function threadOrigin(origin: Origin, memberIds: string[]) {
  return {
    slackChannel: origin.slackChannel,
    ...(origin.threadTs ? { threadTs: origin.threadTs } : {}),
    createdBy: origin.userId,
    memberIds,
  };
}

/**
 * Sends `text` once: an ambiguous create is found again among the thread's messages since the
 * first attempt. A 404 (no such thread) is the service's error, so the step is marked refused
 * (provably not applied) and the caller decides what it means.
 */
async function sendMessage(
  ctx: ProcessorContext,
  threadId: string,
  text: string,
  parentId?: string,
): Promise<Message> {
  // Kept with the message's started mark (the same write): the recover looks from here.
  const since = await ctx.once('message:since', async () => Date.now(), undefined, { repeatable: true });
  return ctx.once(
    'message',
    () =>
      ctx.collab.createMessage(threadId, {
        content_markdown: text,
        ...(parentId ? { parent_id: parentId } : {}),
      }),
    // Walked back to before the first attempt, however many messages came since (engine/landed.ts).
    () =>
      findSince(
        ctx.collab.allMessages(threadId, { sort: 'created_at', direction: 'desc', limit: PAGE_SIZE_MAX }),
        since,
        (m) =>
          m.author?.type === 'app' && createdSince(m.created_at, since) && contentEquals(m.content, text),
      ),
  );
}

function uniqueMembers(members: Member[]): Member[] {
  const seen = new Set<string>();
  return members.filter((m) => !seen.has(m.id) && seen.add(m.id));
}

function listOf(names: string[]): string {
  if (names.length <= 1) return names[0] ?? 'yourself';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** An id shown as inline code in text that render escapes (so no escaping here). */
function inlineCode(id: string): string {
  return `\`${id.replace(/`/g, "'")}\``;
}
