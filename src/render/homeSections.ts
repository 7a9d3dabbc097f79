/**
 * App Home sections of what the service sends back to Slack: quick actions, whether the service
 * answers and accepts the key, linked and followed channels, digests with their next run, and
 * the person's recent operations (what each acted on, failed ones with their reason). Each is a
 * pure {@link HomeSection} over `state.activity`; a state without it shows none of them.
 */
import type { KnownBlock } from '@slack/types';
import { cutPlain, truncate } from './cut.ts';
import { notifySection } from './homeNotify.ts';
import { pausedChannelsSection } from './homePaused.ts';
import type { HomeSection, ServiceState } from './homeState.ts';
import { ACTIONS } from './ids.ts';
import { LIMITS, md, plain } from './limits.ts';
import { describeOperation, describeOperationOn } from './operationWords.ts';
import { escapeMrkdwn, mrkdwnLink, oneLine } from './text.ts';
import { slackDate } from './time.ts';

/** Lines of a list shown at most; the rest are counted. */
const SHOWN = 10;

/** A Slack channel reference: shown with its name by Slack, never a ping. */
const channelRef = (slackChannel: string) =>
  /^[CG][A-Z0-9_]+$/.test(slackChannel) ? `<#${slackChannel}>` : `\`${escapeMrkdwn(slackChannel)}\``;

function capped(lines: string[], empty: string): string {
  if (lines.length === 0) return empty;
  const shown = lines.slice(0, SHOWN);
  const more = lines.length - shown.length;
  return truncate(`${shown.join('\n')}${more > 0 ? `\n_…and ${more} more_` : ''}`, LIMITS.sectionText);
}

const heading = (title: string): KnownBlock[] => [
  { type: 'divider' },
  { type: 'header', text: plain(title, LIMITS.headerText) },
];

export const quickActionsSection: HomeSection = (state) =>
  state.activity
    ? [
        {
          type: 'actions',
          block_id: 'home_quick_actions',
          elements: [
            {
              type: 'button',
              action_id: ACTIONS.homeNewPost,
              style: 'primary',
              text: plain('New post', LIMITS.buttonText),
            },
            { type: 'button', action_id: ACTIONS.homeHelp, text: plain('Help', LIMITS.buttonText) },
          ],
        },
      ]
    : [];

const SERVICE_WORDS: Record<ServiceState, string> = {
  ok: ':large_green_circle: The service answers and accepts the API key.',
  rejected: ':red_circle: The service answers but rejects the API key.',
  unreachable: ':red_circle: The service does not answer.',
  error: ':large_orange_circle: The service answered with an error.',
};

export const serviceSection: HomeSection = (state) => {
  const service = state.activity?.service;
  if (!service) return [];
  const detail = service.detail ? ` ${escapeMrkdwn(oneLine(service.detail))}` : '';
  const polling = state.activity?.polling;
  return [
    {
      type: 'context',
      elements: [
        md(
          `${SERVICE_WORDS[service.state]}${detail}  ·  checked ${slackDate(service.checkedAt, '{time}')}`,
          LIMITS.contextText,
        ),
        ...(polling ? [md(pollingWords(polling), LIMITS.contextText)] : []),
      ],
    },
  ];
};

/** The feed interval in effect, and why when the request budget stretched it. */
export function pollingWords(polling: { feedEveryMs: number; stretch: number }): string {
  const every = duration(polling.feedEveryMs * polling.stretch);
  if (polling.stretch < 1.05) return `Followed channels are checked every ${every}.`;
  return `Followed channels are checked every ${every} (instead of ${duration(polling.feedEveryMs)}): the service's rate limit is shared by every workspace of this app.`;
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  return `${Math.round(minutes / 6) / 10} h`;
}

export const channelsSection: HomeSection = (state) => {
  const activity = state.activity;
  if (!activity) return [];
  const lines = activity.links.map(
    (l) =>
      `• ${channelRef(l.slackChannel)} → *#${escapeMrkdwn(oneLine(l.channelName).replace(/^#/, ''))}*${l.followed ? `  ·  :satellite_antenna: followed${l.filters ? `: ${escapeMrkdwn(l.filters)}` : ''}` : ''}${l.bridgeReplies ? '  ·  replies become comments' : ''}`,
  );
  for (const slackChannel of activity.followedOnly)
    lines.push(`• ${channelRef(slackChannel)}  ·  :satellite_antenna: followed`);
  return [
    ...heading('Linked and followed channels'),
    {
      type: 'section',
      text: md(
        capped(lines, `_None yet._ In a channel, \`${escapeMrkdwn(state.command)} link #channel\` links it.`),
      ),
    },
  ];
};

export const digestsSection: HomeSection = (state) => {
  const activity = state.activity;
  if (!activity) return [];
  const lines = activity.digests.map(
    (d) =>
      `• \`${escapeMrkdwn(d.id)}\` in ${channelRef(d.slackChannel)}: ${escapeMrkdwn(d.label)} (${escapeMrkdwn(d.tz)})${d.filters ? `, ${escapeMrkdwn(d.filters)}` : ''}  ·  ${activity.paused?.some((p) => p.slackChannel === d.slackChannel) ? ':double_vertical_bar: paused' : d.next === undefined ? 'not scheduled' : `next ${slackDate(d.next)}`}`,
  );
  return [
    ...heading('Digests'),
    {
      type: 'section',
      text: md(
        capped(
          lines,
          `_None yet._ In a channel, \`${escapeMrkdwn(state.command)} digest add every weekday at 9:00\` schedules one.`,
        ),
      ),
    },
  ];
};

/** What a recent operation acted on is named in at most this many characters: one line each. */
const SUBJECT_MAX = 80;

export const recentSection: HomeSection = (state) => {
  const activity = state.activity;
  if (!activity) return [];
  const lines = activity.recent.map((r) => {
    const ms = Date.parse(r.at);
    const when = Number.isFinite(ms) ? slackDate(ms) : escapeMrkdwn(r.at);
    // What it acted on: "resolve the post *<url|Launch plan>*", "send the message to *Grace*".
    const what = r.subject
      ? describeOperationOn(
          r.operation,
          `*${mrkdwnLink(r.subject.url, cutPlain(oneLine(r.subject.title), SUBJECT_MAX))}*`,
        )
      : escapeMrkdwn(describeOperation(r.operation));
    if (r.outcome === 'completed') return `• :white_check_mark: ${when}: ${what}`;
    const reason = r.reason ? `: ${truncate(escapeMrkdwn(oneLine(r.reason)), 300)}` : '';
    return `• :warning: ${when}: could not ${what}${reason}`;
  });
  return [
    ...heading('Your recent operations'),
    { type: 'section', text: md(capped(lines, '_Nothing yet._')) },
  ];
};

/** In page order, after the welcome and the connection. */
export const ACTIVITY_SECTIONS: readonly HomeSection[] = [
  quickActionsSection,
  serviceSection,
  channelsSection,
  pausedChannelsSection,
  digestsSection,
  notifySection,
  recentSection,
];
