/**
 * `link_shared`: someone shared a link of the service's domain (the manifest's unfurl domains).
 * The links go to the unfurlLinks job, which unfurls those naming a post (a url the bot has seen
 * in API answers, or matching COLLAB_POST_URL_PATTERN) — reading the post never happens here.
 * Bolt has acked already; a retried event is the same job (keyed by message and urls).
 */
import { createHash } from 'node:crypto';
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { authorisedTeam } from '../authorised.ts';
import type { ListenerDeps } from '../deps.ts';
import { enqueue } from '../shared.ts';

type Args = SlackEventMiddlewareArgs<'link_shared'> & AllMiddlewareArgs;

const MAX_LINKS = 10;

export function linkSharedListener(deps: ListenerDeps) {
  return async ({ event, context }: Args): Promise<void> => {
    const teamId = authorisedTeam(context);
    if (!teamId) return;
    const links = event.links
      .filter((l) => typeof l.url === 'string' && l.url.length <= 3000)
      .slice(0, MAX_LINKS)
      .map((l) => ({ url: l.url, domain: String(l.domain ?? '') }));
    if (links.length === 0) return;
    const source =
      event.source === 'composer' || event.source === 'conversations_history' ? event.source : undefined;
    const urls = createHash('sha256')
      .update(links.map((l) => l.url).join('\n'))
      .digest('hex')
      .slice(0, 16);
    await enqueue(
      deps,
      'unfurlLinks',
      {
        teamId,
        slackChannel: event.channel,
        messageTs: event.message_ts,
        ...(event.unfurl_id ? { unfurlId: event.unfurl_id } : {}),
        ...(source ? { source } : {}),
        links,
      },
      `unfurl:${event.unfurl_id ?? `${event.channel}:${event.message_ts}`}:${urls}`,
    );
  };
}
