/**
 * Digests in Slack: the digest message (grouped, with links, inside Block Kit limits: the top few
 * of each group and "…and N more"), the one-line quiet note, and the list of a channel's digests.
 */
import type { KnownBlock } from '@slack/types';
import { cutPlain, truncate } from './cut.ts';
import { LIMITS, md, plain } from './limits.ts';
import { escapeMrkdwn, mrkdwnLink, oneLine, webUrl } from './text.ts';
import { slackDate } from './time.ts';

/** Characters of a title in a digest line. */
const TITLE_MAX = 120;

/** What a digest line needs of a post: no content, so a kept item is small. */
export interface DigestItem {
  id: string;
  title: string | null | undefined;
  /** The post's words as plain text (collectDigest converts the content once): never converted again. */
  content: string | null | undefined;
  url: string | null | undefined;
  channel: string | undefined;
  author: string | undefined;
  commentsCount: number;
  resolvedBy: string | undefined;
  createdMs: number | undefined;
  activityMs: number;
  resolvedMs: number | undefined;
}

export interface DigestGroup {
  items: DigestItem[];
  count: number;
}

export interface DigestSummary {
  since: number;
  until: number;
  newPosts: DigestGroup;
  resolved: DigestGroup;
  active: DigestGroup;
  open: DigestGroup;
  /** posts read from the service */
  scanned: number;
  /** the walk hit its cap of posts read (`DIGEST_MAX_SCAN` in jobs/digest.ts) */
  truncated: boolean;
}

export interface DigestScope {
  /** the collaboration channel's name; undefined: all channels (the Slack channel is not linked) */
  channelName?: string | undefined;
  /** the schedule in words, e.g. "every weekday at 09:00 (Europe/Paris)"; undefined for a digest run by hand */
  schedule?: string | undefined;
}

/** Date tokens live in time.ts; digests and their callers keep importing them from here. */
export { slackDate } from './time.ts';

function scopeText(scope: DigestScope): string {
  return scope.channelName ? `#${scope.channelName.replace(/^#/, '')}` : 'all channels';
}

function titleOf(item: DigestItem): string {
  const title = oneLine(item.title ?? '');
  if (title) return cutPlain(title, TITLE_MAX);
  const words = oneLine(item.content ?? '');
  return cutPlain(words || `Post ${item.id}`, Math.min(TITLE_MAX, 80));
}

function line(item: DigestItem, extra: string | undefined, scope: DigestScope): string {
  const link = mrkdwnLink(webUrl(item.url), titleOf(item));
  const facts = [
    scope.channelName ? undefined : item.channel ? `#${oneLine(item.channel)}` : undefined,
    item.author ? oneLine(item.author) : undefined,
  ]
    .filter((f): f is string => Boolean(f))
    .map(escapeMrkdwn);
  return `• ${link}${facts.length ? `  ·  ${facts.join('  ·  ')}` : ''}${extra ? `  ·  ${extra}` : ''}`;
}

function groupSection(
  title: string,
  group: DigestGroup,
  extra: (item: DigestItem) => string | undefined,
  scope: DigestScope,
): KnownBlock[] {
  if (group.count === 0) return [];
  const more = group.count - group.items.length;
  const budget = LIMITS.sectionText - title.length - 40;
  const lines: string[] = [];
  let used = 0;
  let dropped = 0;
  for (const item of group.items) {
    const text = truncate(line(item, extra(item), scope), 500);
    if (used + text.length + 1 > budget) {
      dropped += 1;
      continue;
    }
    lines.push(text);
    used += text.length + 1;
  }
  const hidden = more + dropped;
  const tail = hidden > 0 ? `\n_…and ${hidden} more_` : '';
  return [{ type: 'section', text: md(`*${title} (${group.count})*\n${lines.join('\n')}${tail}`) }];
}

const comments = (n: number) => `${n} comment${n === 1 ? '' : 's'}`;

/** The digest message. */
export function digestMessage(
  summary: DigestSummary,
  scope: DigestScope,
): { text: string; blocks: KnownBlock[] } {
  const where = scopeText(scope);
  const blocks: KnownBlock[] = [
    { type: 'header', text: plain(`Digest of ${where}`, LIMITS.headerText) },
    {
      type: 'context',
      elements: [
        md(
          `What changed since ${slackDate(summary.since)}${scope.schedule ? `  ·  ${escapeMrkdwn(scope.schedule)}` : ''}`,
          LIMITS.contextText,
        ),
      ],
    },
    ...groupSection(':new: New posts', summary.newPosts, () => undefined, scope),
    ...groupSection(
      ':white_check_mark: Resolved',
      summary.resolved,
      (i) => (i.resolvedBy ? `by ${escapeMrkdwn(oneLine(i.resolvedBy))}` : undefined),
      scope,
    ),
    ...groupSection(':speech_balloon: Most active', summary.active, (i) => comments(i.commentsCount), scope),
    ...groupSection(':hourglass_flowing_sand: Still unresolved', summary.open, () => undefined, scope),
  ];
  if (summary.truncated) {
    blocks.push({
      type: 'context',
      elements: [md(`_Only the ${summary.scanned.toLocaleString('en')} most recent posts were read._`)],
    });
  }
  const counts = [
    `${summary.newPosts.count} new`,
    `${summary.resolved.count} resolved`,
    `${summary.open.count} still unresolved`,
  ].join(', ');
  return {
    text: escapeMrkdwn(`Digest of ${where}: ${counts}.`),
    blocks: blocks.slice(0, LIMITS.messageBlocks),
  };
}

/** The one-line note of a digest with nothing to say (when DIGEST_QUIET_NOTE is on). */
export function quietDigestMessage(
  summary: Pick<DigestSummary, 'since'>,
  scope: DigestScope,
): {
  text: string;
  blocks: KnownBlock[];
} {
  const text = `:zzz: Nothing changed in ${escapeMrkdwn(scopeText(scope))} since ${slackDate(summary.since)}.`;
  return {
    text: escapeMrkdwn(`Nothing changed in ${scopeText(scope)}.`),
    blocks: [{ type: 'context', elements: [md(text)] }],
  };
}

export interface DigestListEntry {
  id: string;
  label: string;
  tz: string;
  /** epoch ms of the next run, when the scheduler knows it */
  next?: number | undefined;
  /** the digest's filters in words (filters.ts), when it has any */
  filters?: string | undefined;
}

/** "`d1` every weekday at 09:00 (Europe/Paris) · next …" */
export function digestLine(entry: DigestListEntry): string {
  const next = entry.next === undefined ? 'not scheduled' : `next ${slackDate(entry.next)}`;
  const filters = entry.filters ? `  ·  ${escapeMrkdwn(entry.filters)}` : '';
  return `• \`${escapeMrkdwn(entry.id)}\` ${escapeMrkdwn(entry.label)} (${escapeMrkdwn(entry.tz)})  ·  ${next}${filters}`;
}

/** The digests of one Slack channel, for `/collab digest list`. */
export function digestListMessage(
  entries: DigestListEntry[],
  scope: DigestScope & { command: string },
): { text: string; blocks: KnownBlock[] } {
  const where = scopeText(scope);
  const head = entries.length
    ? `*Digests of this channel* (they cover ${escapeMrkdwn(where)})`
    : `No digest is scheduled in this channel. Add one: \`${escapeMrkdwn(scope.command)} digest add every weekday at 9:00\``;
  const blocks: KnownBlock[] = [{ type: 'section', text: md(head) }];
  if (entries.length) {
    blocks.push({ type: 'section', text: md(entries.map(digestLine).join('\n')) });
    blocks.push({
      type: 'context',
      elements: [
        md(
          `Remove one with \`${escapeMrkdwn(scope.command)} digest remove &lt;id&gt;\`; post one now with \`${escapeMrkdwn(scope.command)} digest run\`.`,
        ),
      ],
    });
  }
  if (!scope.channelName) {
    blocks.push({
      type: 'context',
      elements: [
        md(
          `This Slack channel is not linked, so digests cover all channels. Link it with \`${escapeMrkdwn(scope.command)} link #channel\` to narrow them.`,
        ),
      ],
    });
  }
  return {
    text: entries.length ? `${entries.length} digest(s) in this channel.` : 'No digest in this channel.',
    blocks,
  };
}
