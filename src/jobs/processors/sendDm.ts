/**
 * sendDm: a direct message from Slack to people of the service, in a thread of the service.
 * The thread of an exact set of members is made once and reused; the sender is in it when
 * they are a member too.
 */
import { type Member, type Message, PAGE_SIZE_MAX, type Thread } from '../../collab/schemas.ts';
import type { JobData, Origin } from '../../operations/schemas.ts';
import { success } from '../../render/messages.ts';
import type { ProcessorContext } from '../context.ts';
import { tell } from '../delivery.ts';
import { findSince } from '../landed.ts';
import { noteDmActivity } from '../mirroring.ts';
import { memberName, memberOf, recipientsOf } from '../people.ts';
import { noThread, noThreadFor, orNotFound } from '../resolveRefs.ts';
import { contentEquals, createdSince, escapeMarkdown } from '../text.ts';

export async function sendDm(data: JobData<'sendDm'>, ctx: ProcessorContext): Promise<void> {
  const { origin } = data;
  const sender = await memberOf(ctx, origin.userId);
  const text = `*${escapeMarkdown(sender.person.name)}* via Slack:\n${data.text}`;

  if ('threadId' in data) {
    const sent = await sendMessage(
      ctx,
      data.threadId,
      text,
      () => noThreadFor(ctx, data.threadId, origin),
      data.parentId,
    );
    await noteDmActivity(ctx, data.threadId, sent);
    // A Slack reply to a mirrored message is its own record in Slack: success stays quiet.
    if (origin.source === 'event') return;
    await tell(ctx, origin, success(`Sent to thread ${inlineCode(data.threadId)}.`));
    return;
  }

  const recipients = await recipientsOf(ctx, data.slackUserIds);
  const members = uniqueMembers([...recipients, ...(sender.ok ? [sender.member] : [])]);
  const memberIds = members.map((m) => m.id);
  let shortfall: string | undefined;
  let threadId = await ctx.store.threads.threadFor(ctx.teamId, memberIds);
  if (threadId === undefined) {
    // No list-threads endpoint exists to tell whether an ambiguous create landed: a re-run after
    // a dropped answer may make a second thread (harmless: the message is sent only once).
    const thread: Thread = await ctx.once('thread', () =>
      ctx.collab.createThread({
        member_ids: memberIds,
        title: `${members.map(memberName).join(', ')} (from Slack)`,
      }),
    );
    threadId = thread.id;
    await ctx.store.threads.remember(ctx.teamId, threadId, threadOrigin(origin, memberIds));
    const added = thread.members_count;
    if (typeof added === 'number' && added < memberIds.length) {
      shortfall = `The service added ${added} of the ${memberIds.length} people you named.`;
    }
  }
  const message = await sendMessage(ctx, threadId, text, () => noThread(threadId));
  await noteDmActivity(ctx, threadId, message);

  const names = uniqueMembers(recipients).map(memberName);
  const sent = `Sent to ${listOf(names)} in thread ${inlineCode(threadId)}.`;
  await tell(ctx, origin, success(shortfall ? `${sent} ${shortfall}` : sent));
}

function threadOrigin(origin: Origin, memberIds: string[]) {
  return {
    slackChannel: origin.slackChannel,
    ...(origin.threadTs ? { threadTs: origin.threadTs } : {}),
    createdBy: origin.userId,
    memberIds,
  };
}

/** Sends `text` once: an ambiguous create is found again among the thread's messages since the first attempt. */
async function sendMessage(
  ctx: ProcessorContext,
  threadId: string,
  text: string,
  missing: () => string,
  parentId?: string,
): Promise<Message> {
  // Kept with the message's started mark (the same write): the recover looks from here.
  const since = await ctx.once('message:since', async () => Date.now(), undefined, { repeatable: true });
  return ctx.once(
    'message',
    () =>
      orNotFound(
        () =>
          ctx.collab.createMessage(threadId, {
            content_markdown: text,
            ...(parentId ? { parent_id: parentId } : {}),
          }),
        missing,
      ),
    // Walked back to before the first attempt, however many messages came since (landed.ts).
    () =>
      orNotFound(
        () =>
          findSince(
            ctx.collab.allMessages(threadId, { sort: 'created_at', direction: 'desc', limit: PAGE_SIZE_MAX }),
            since,
            (m) =>
              m.author?.type === 'app' && createdSince(m.created_at, since) && contentEquals(m.content, text),
          ),
        missing,
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
