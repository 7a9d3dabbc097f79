import { md } from '../../render/limits.ts';
import { escapeMrkdwn } from '../../render/text.ts';
import type { Processor } from '../context.ts';
import { flushSchedulerId, isQuiet } from '../notifications.ts';

/** The end of quiet hours: one summary of what was held, then the scheduler goes. */
export const flushNotifications: Processor<'flushNotifications'> = async (data, ctx) => {
  const { userId } = data;
  const settings = await ctx.store.notifications.get(ctx.teamId, userId);
  if (settings?.on && isQuiet(settings.tz)) return;
  const held = await ctx.once('take', () => ctx.store.notifications.takeHeld(ctx.teamId, userId));
  if (held.length > 0 && settings?.on) {
    const lines = held.map((n) => {
      const title = escapeMrkdwn(n.title);
      const named = n.url ? `<${n.url}|${title}>` : title;
      return `• *${named}*: ${escapeMrkdwn(n.what)}`;
    });
    await ctx.once(
      'summary',
      async () => {
        await ctx.slack.chat.postMessage({
          channel: userId,
          text: `While you were away, ${held.length} change(s) to your posts.`,
          blocks: [
            { type: 'section', text: md(`:sunrise: *While you were away* (${held.length})`) },
            { type: 'section', text: md(lines.join('\n').slice(0, 2900)) },
          ],
          unfurl_links: false,
          unfurl_media: false,
        });
        return true;
      },
      async () => true,
    );
  }
  await ctx.schedules.remove(flushSchedulerId(ctx.teamId, userId));
};
