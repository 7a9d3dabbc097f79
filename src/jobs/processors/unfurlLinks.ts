/**
 * unfurlLinks: the links of a shared message that name a post — a url the bot has seen in the
 * service's answers (store.urls), or one matching the operator's COLLAB_POST_URL_PATTERN — are
 * unfurled with the post's card, and remembered with the post so that a change the bot makes to
 * it updates the unfurl in place (jobs/unfurls.ts). A post the key cannot read is not unfurled.
 * Nothing is ever said in the channel about a failure: it is logged.
 */

import type { Post } from '../../collab/schemas.ts';
import { postUnfurl } from '../../render/unfurl.ts';
import { slackErrorCode } from '../../slackapi/errors.ts';
import { commandOf, type Processor, type ProcessorContext } from '../context.ts';

/** Links of one message unfurled at most (Slack sends up to a handful). */
const MAX_LINKS = 10;

/** The post id a configured pattern finds in `url` (its first capture group), if any. */
export function postIdFromPattern(pattern: RegExp | undefined, url: string): string | undefined {
  if (!pattern) return undefined;
  const id = pattern.exec(url)?.[1]?.trim();
  return id && id.length <= 200 && !/[\s/?#]/.test(id) ? id : undefined;
}

async function readPost(ctx: ProcessorContext, postId: string): Promise<Post | undefined> {
  try {
    return await ctx.collab.getPost(postId);
  } catch (error) {
    ctx.logger.info(
      { err: error instanceof Error ? error.message : String(error), postId },
      'post not readable; not unfurled',
    );
    return undefined;
  }
}

export const unfurlLinks: Processor<'unfurlLinks'> = async (data, ctx) => {
  const command = commandOf(ctx);
  const unfurls: Record<string, ReturnType<typeof postUnfurl>> = {};
  const postOf = new Map<string, string>();
  const urls = [...new Set(data.links.map((l) => l.url))].slice(0, MAX_LINKS);
  for (const url of urls) {
    const postId =
      (await ctx.store.urls.postOfUrl(ctx.teamId, url)) ??
      postIdFromPattern(ctx.features?.postUrlPattern, url);
    if (!postId) continue;
    const post = await readPost(ctx, postId);
    if (!post) continue;
    await ctx.store.urls.remember(ctx.teamId, post.url, post.id);
    unfurls[url] = postUnfurl(post, command);
    postOf.set(url, post.id);
  }
  if (Object.keys(unfurls).length === 0) {
    ctx.logger.debug({ links: urls.length }, 'no link to unfurl');
    return;
  }
  const where =
    data.source === 'composer' && data.unfurlId
      ? { unfurl_id: data.unfurlId, source: data.source }
      : { channel: data.slackChannel, ts: data.messageTs };
  try {
    await ctx.once('unfurl', async () => {
      await ctx.slack.chat.unfurl({ ...where, unfurls });
      return true;
    });
  } catch (error) {
    ctx.logger.warn({ err: slackErrorCode(error) }, 'chat.unfurl failed');
    return;
  }
  // A message in the channel can be unfurled again later; a link still in the composer cannot
  // (Slack unfurls it once more when the message is sent).
  if (!('ts' in where) || !where.ts) return;
  for (const [url, postId] of postOf) {
    await ctx.store.cards.rememberUnfurl(ctx.teamId, postId, {
      slackChannel: where.channel,
      ts: where.ts,
      url,
    });
  }
};
