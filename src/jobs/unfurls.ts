/**
 * Unfurls of links to a post, updated in place when the post changes: Slack replaces the unfurl
 * of a url on a message when `chat.unfurl` is called again for the same message, so an unfurl made
 * while the post was open shows it resolved once the bot has resolved it. Messages that are gone
 * are forgotten; other Slack failures are logged (the operation itself succeeded).
 */

import type { Post } from '../collab/schemas.ts';
import { postUnfurl } from '../render/unfurl.ts';
import { isGone, slackErrorCode } from '../slackapi/errors.ts';
import type { UnfurlRef } from '../store/cards.ts';
import { commandOf, type ProcessorContext } from './context.ts';

export async function updateUnfurls(ctx: ProcessorContext, post: Post, refs: UnfurlRef[]): Promise<void> {
  if (refs.length === 0) return;
  const unfurl = postUnfurl(post, commandOf(ctx));
  // One call per message, with every link of it to this post.
  const byMessage = new Map<string, UnfurlRef[]>();
  for (const ref of refs) {
    const at = `${ref.slackChannel}|${ref.ts}`;
    byMessage.set(at, [...(byMessage.get(at) ?? []), ref]);
  }
  for (const links of byMessage.values()) {
    const [first] = links as [UnfurlRef, ...UnfurlRef[]];
    try {
      await ctx.slack.chat.unfurl({
        channel: first.slackChannel,
        ts: first.ts,
        unfurls: Object.fromEntries(links.map((link) => [link.url, unfurl])),
      });
    } catch (error) {
      const code = slackErrorCode(error);
      ctx.logger.info({ err: code, slackChannel: first.slackChannel }, 'unfurl not updated');
      if (isGone(code)) {
        for (const link of links) await ctx.store.cards.forgetUnfurl(ctx.teamId, post.id, link);
      }
    }
  }
}
