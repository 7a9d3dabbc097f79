/**
 * App Home section of paused Slack channels: a channel archived, deleted or that the bot was
 * removed from has its feed and digests paused (kept, not polled, not posted) until it is back.
 * Shown to everyone, so whoever can unarchive the channel or invite the bot sees why it is quiet.
 */
import type { KnownBlock } from '@slack/types';
import { truncate } from './cut.ts';
import { slackDate } from './digest.ts';
import { LIMITS, md, plain } from './limits.ts';

export interface PausedSlackChannel {
  slackChannel: string;
  reason: 'archived' | 'deleted' | 'removed';
  /** epoch ms of the change that paused it */
  since: number;
  /** whether the channel follows a collaboration channel */
  feed: boolean;
  digests: number;
}

const WHY: Record<PausedSlackChannel['reason'], { what: string; back: string }> = {
  archived: { what: 'archived', back: 'They resume when the channel is unarchived.' },
  deleted: {
    what: 'deleted',
    back: 'A deleted channel does not come back: `unfollow` or remove the digests.',
  },
  removed: { what: 'I was removed from it', back: 'They resume when I am invited back (`/invite @Collab`).' },
};

function held(channel: PausedSlackChannel): string {
  const parts = [
    ...(channel.feed ? ['its feed'] : []),
    ...(channel.digests > 0 ? [channel.digests === 1 ? '1 digest' : `${channel.digests} digests`] : []),
  ];
  return parts.length === 0 ? 'nothing is held' : `${parts.join(' and ')} paused`;
}

export function pausedLine(channel: PausedSlackChannel): string {
  const why = WHY[channel.reason];
  const ref = /^[CG][A-Z0-9_]+$/.test(channel.slackChannel) ? `<#${channel.slackChannel}>` : '`a channel`';
  return `• :double_vertical_bar: ${ref}: ${why.what} (since ${slackDate(channel.since)}); ${held(channel)}. ${why.back}`;
}

/** A Home section (home.ts) over the part of the state it reads. */
export const pausedChannelsSection = (state: {
  activity?: { paused?: PausedSlackChannel[] | undefined } | undefined;
}): KnownBlock[] => {
  const paused = state.activity?.paused ?? [];
  if (paused.length === 0) return [];
  return [
    { type: 'divider' },
    { type: 'header', text: plain('Paused channels', LIMITS.headerText) },
    { type: 'section', text: md(truncate(paused.map(pausedLine).join('\n'), LIMITS.sectionText)) },
  ];
};
