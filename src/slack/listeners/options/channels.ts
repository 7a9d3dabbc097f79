/**
 * Options of the collaboration channel picker. Slack waits 3 s for them, so this is one of the
 * two places that call the API from a listener: with a short timeout, a 30 s cache per query,
 * and an empty list rather than a missed deadline when the API is slow or failing.
 */
import { createHash } from 'node:crypto';
import type { AllMiddlewareArgs, SlackOptionsMiddlewareArgs } from '@slack/bolt';
import { channelOptions } from '../../../render/modals.ts';
import { authorisedTeam } from '../authorised.ts';
import type { ListenerDeps } from '../deps.ts';
import { BlockSuggestionBody } from '../payloads.ts';
import { withDeadline } from '../shared.ts';

type Args = SlackOptionsMiddlewareArgs<'block_suggestion'> & AllMiddlewareArgs;
type ChannelOptions = ReturnType<typeof channelOptions>;

const CACHE_TTL_SECONDS = 30;
/** Beyond the API's own timeout, what the cache and the workspace lookup may take. */
const HEADROOM_MS = 500;

export function channelPickerOptions(deps: ListenerDeps) {
  const timeoutMs = deps.optionsTimeoutMs;

  async function load(teamId: string, query: string): Promise<ChannelOptions> {
    const cacheName = `options:channels:${createHash('sha256').update(query).digest('hex').slice(0, 24)}`;
    const cached = await deps.store.cache.get<ChannelOptions>(teamId, cacheName);
    if (cached && Array.isArray(cached.options)) return cached;
    const workspace = await deps.workspaces.get(teamId);
    if (!workspace) throw new Error('workspace not installed');
    const page = await workspace.collab.listChannels(
      { ...(query ? { name: query } : {}), limit: 50, sort: 'name', direction: 'asc' },
      { signal: AbortSignal.timeout(timeoutMs) },
    );
    const options = channelOptions(page.data);
    await deps.store.cache.set(teamId, cacheName, options, CACHE_TTL_SECONDS);
    return options;
  }

  return async ({ body, ack, context }: Args): Promise<void> => {
    const read = BlockSuggestionBody.safeParse(body);
    const teamId = authorisedTeam(context);
    if (!read.success || !teamId) {
      deps.logger.warn('malformed block_suggestion');
      await ack({ options: [] });
      return;
    }
    const query = read.data.value.trim().replace(/^#/, '');
    const loading = load(teamId, query).catch((error: unknown) => {
      deps.logger.warn({ err: error }, 'channel options unavailable; answering an empty list');
      return undefined;
    });
    const options = await withDeadline(loading, timeoutMs + HEADROOM_MS);
    await ack(options ?? { options: [] });
  };
}
