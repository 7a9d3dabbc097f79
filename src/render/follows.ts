/** `/collab follow list`: the workspace's followed Slack channels, what each follows and shows. */
import type { KnownBlock } from '@slack/types';
import { truncate } from './cut.ts';
import { LIMITS, md } from './limits.ts';
import { escapeMrkdwn } from './text.ts';

export interface FollowListEntry {
  slackChannel: string;
  /** the collaboration channel's name, when the Slack channel is still linked */
  channelName?: string | undefined;
  /** the filters in words (filters.ts); absent: every new post */
  filters?: string | undefined;
  /** why the feed is paused, when it is */
  paused?: string | undefined;
}

const ref = (slackChannel: string) =>
  /^[CG][A-Z0-9_]+$/.test(slackChannel) ? `<#${slackChannel}>` : `\`${escapeMrkdwn(slackChannel)}\``;

export function followLine(entry: FollowListEntry): string {
  const what = entry.channelName ? ` → *#${escapeMrkdwn(entry.channelName.replace(/^#/, ''))}*` : '';
  const shows = entry.filters ? escapeMrkdwn(entry.filters) : 'every new post';
  const paused = entry.paused ? `  ·  :double_vertical_bar: paused (${escapeMrkdwn(entry.paused)})` : '';
  return `• ${ref(entry.slackChannel)}${what}  ·  ${shows}${paused}`;
}

export function followListMessage(
  entries: FollowListEntry[],
  command: string,
): { text: string; blocks: KnownBlock[] } {
  const c = escapeMrkdwn(command);
  if (entries.length === 0) {
    const text = `No Slack channel follows a collaboration channel yet. In a linked channel, \`${c} follow\` starts one.`;
    return { text, blocks: [{ type: 'section', text: md(text) }] };
  }
  const lines = entries.map(followLine).join('\n');
  return {
    text: truncate(`Followed channels:\n${lines}`, LIMITS.messageText),
    blocks: [
      { type: 'section', text: md('*Followed channels*') },
      { type: 'section', text: md(truncate(lines, LIMITS.sectionText)) },
      {
        type: 'context',
        elements: [
          md(
            `Change what a channel shows there: \`${c} follow [unresolved] [no-apps] [with "word"] [without "word"]\`, or \`${c} follow all\`. The feed keeps its place.`,
          ),
        ],
      },
    ],
  };
}
