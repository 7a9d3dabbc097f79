/**
 * Personal notifications: a person who turned them on (`/collab notify on`, or App Home) hears by
 * DM when a post they created from Slack — or one their member wrote in the service, matched by
 * the email of their Slack profile — is commented on or resolved, with the post's card. It rides
 * on the feeds' polling: the change a feed announces (once per state of a post) is the change told,
 * so it costs no request to the service. During quiet hours (22:00–08:00 in the person's Slack time
 * zone) notices are held, and one summary is sent at 08:00.
 */

import type { Post } from '../collab/schemas.ts';
import { changeNoteText, type PostChange } from '../render/changes.ts';
import { md } from '../render/limits.ts';
import { cardVersion, postCard } from '../render/postCard.ts';
import { escapeMrkdwn } from '../render/text.ts';
import { slackErrorCode } from '../slackapi/errors.ts';
import type { ProcessorContext } from './context.ts';
import { schedulerId } from './schedules.ts';

/** Quiet hours, in the person's own time zone: from 22:00 to 08:00. */
export const QUIET_FROM_HOUR = 22;
export const QUIET_UNTIL_HOUR = 8;

export const flushSchedulerId = (teamId: string, userId: string) => schedulerId(teamId, 'notify', userId);

/** Whether `at` falls in the quiet hours of `tz`. */
export function isQuiet(tz: string, at = Date.now()): boolean {
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: 'numeric', hourCycle: 'h23' }).format(at),
  );
  return hour >= QUIET_FROM_HOUR || hour < QUIET_UNTIL_HOUR;
}

/**
 * Tells the people a post belongs to about a change a feed announced (once per state of the
 * post). Called by the feed: no request to the service; one HGETALL when nobody listens.
 */
export async function notifyChange(ctx: ProcessorContext, post: Post, changes: readonly PostChange[]) {
  if (changes.length === 0) return;
  const listening = await ctx.store.notifications.listening(ctx.teamId);
  if (listening.length === 0) return;
  const creator = await ctx.store.notifications.creatorOf(ctx.teamId, post.id);
  const authorId = post.author?.id;
  const what = changeNoteText(changes);
  for (const { userId, settings } of listening) {
    if (userId !== creator && (authorId === undefined || settings.memberId !== authorId)) continue;
    const step = `notify:${userId}:${post.id}:${cardVersion(post)}`;
    if (isQuiet(settings.tz)) {
      await ctx.once(step, async () => {
        await ctx.store.notifications.hold(ctx.teamId, userId, {
          postId: post.id,
          title: post.title?.trim() || post.id,
          ...(post.url ? { url: post.url } : {}),
          what,
          at: Date.now(),
        });
        await ctx.schedules.upsert(
          flushSchedulerId(ctx.teamId, userId),
          { pattern: `0 ${QUIET_UNTIL_HOUR} * * *`, tz: settings.tz },
          'flushNotifications',
          { teamId: ctx.teamId, userId },
        );
        return 'held';
      });
      continue;
    }
    await ctx.once(
      step,
      async () => {
        const card = postCard(post);
        try {
          await ctx.slack.chat.postMessage({
            channel: userId,
            text: `Your post “${post.title ?? post.id}”: ${what}`,
            blocks: [
              { type: 'section', text: md(`:bell: *Your post:* ${escapeMrkdwn(what)}`) },
              ...card.blocks,
            ],
            unfurl_links: false,
            unfurl_media: false,
          });
          return 'sent';
        } catch (error) {
          ctx.logger.info({ err: slackErrorCode(error) }, 'notification not sent');
          return slackErrorCode(error);
        }
      },
      // Stopped between sending and recording: never DM twice.
      async () => 'uncertain',
    );
  }
}
