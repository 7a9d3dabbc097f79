/**
 * Paged lists of posts, channels, members and a thread's messages, with Previous/Next buttons.
 * A page never exceeds Slack's 50 blocks: when items would, several share a section.
 */
import type { Button, KnownBlock, SectionBlock } from '@slack/types';
import {
  type Channel,
  isResolved,
  type Member,
  type Message,
  type Page,
  type Post,
  type Thread,
} from '../collab/schemas.ts';
import { contentToMrkdwn } from './content.ts';
import { truncate } from './cut.ts';
import { ACTIONS } from './ids.ts';
import { authorMrkdwn, channelMrkdwn, countText, postAuthorMrkdwn } from './labels.ts';
import { LIMITS, md, plain } from './limits.ts';
import { postTitleMrkdwn } from './postCard.ts';
import { escapeMrkdwn, oneLine } from './text.ts';
import { slackTime } from './time.ts';

export interface PagingButtons {
  /** value for ACTIONS.pageNext; absent = no button */
  next?: string;
  /** value for ACTIONS.pagePrev; absent = no button */
  prev?: string;
}

export interface ListOptions {
  /** Plain text heading of the list. */
  title: string;
  paging: PagingButtons;
  /** Line shown when the page is empty, instead of the default hint. */
  emptyHint?: string;
}

export interface MessageListOptions extends ListOptions {
  thread?: Thread;
}

export interface Rendered {
  text: string;
  blocks: KnownBlock[];
}

/** Characters one item may take when it has a section of its own. */
const ITEM_MAX = 1200;

/** Items as sections, at most `maxBlocks` of them, each within the section text limit. */
export function packSections(items: string[], maxBlocks: number): SectionBlock[] {
  if (items.length === 0 || maxBlocks <= 0) return [];
  const perBlock = Math.ceil(items.length / maxBlocks);
  const separator = '\n\n';
  const itemMax = Math.min(
    ITEM_MAX,
    Math.floor((LIMITS.sectionText - separator.length * (perBlock - 1)) / perBlock),
  );
  const sections: SectionBlock[] = [];
  for (let i = 0; i < items.length; i += perBlock) {
    const group = items.slice(i, i + perBlock).map((item) => truncate(item, itemMax));
    sections.push({ type: 'section', text: md(group.join(separator)) });
  }
  return sections;
}

function pagingBlock(paging: PagingButtons): KnownBlock | undefined {
  const elements: Button[] = [];
  if (paging.prev !== undefined && paging.prev.length <= LIMITS.buttonValue) {
    elements.push({
      type: 'button',
      action_id: ACTIONS.pagePrev,
      text: plain('← Previous', LIMITS.buttonText),
      value: paging.prev,
    });
  }
  if (paging.next !== undefined && paging.next.length <= LIMITS.buttonValue) {
    elements.push({
      type: 'button',
      action_id: ACTIONS.pageNext,
      text: plain('Next →', LIMITS.buttonText),
      value: paging.next,
    });
  }
  return elements.length > 0 ? { type: 'actions', elements } : undefined;
}

interface ListShape {
  title: string;
  /** context lines under the heading (counts, thread facts), mrkdwn */
  facts: string[];
  items: string[];
  empty: string;
  emptyHint: string;
  noun: string;
  paging: PagingButtons;
}

function list(shape: ListShape): Rendered {
  const head: KnownBlock[] = [
    { type: 'header', text: plain(oneLine(shape.title) || 'List', LIMITS.headerText) },
  ];
  const facts = shape.facts.filter(Boolean);
  if (facts.length > 0)
    head.push({ type: 'context', elements: [md(facts.join('  ·  '), LIMITS.contextText)] });
  const paging = pagingBlock(shape.paging);
  const tail: KnownBlock[] = paging ? [paging] : [];

  let body: KnownBlock[];
  if (shape.items.length === 0) {
    body = [
      { type: 'section', text: md(shape.empty) },
      { type: 'context', elements: [md(shape.emptyHint, LIMITS.contextText)] },
    ];
  } else {
    body = packSections(shape.items, LIMITS.messageBlocks - head.length - tail.length);
  }
  const count = shape.items.length;
  const text = escapeMrkdwn(
    oneLine(
      `${shape.title}: ${count === 0 ? shape.empty : `${count} ${shape.noun}${count === 1 ? '' : 's'}`}`,
    ),
  );
  return { text: truncate(text, 300), blocks: [...head, ...body, ...tail] };
}

function totalFact(page: Page<unknown>): string[] {
  return typeof page.total_count === 'number' ? [`${page.total_count} in all`] : [];
}

function postItem(post: Post): string {
  const emoji = isResolved(post) ? ':white_check_mark:' : ':large_blue_circle:';
  const facts = [
    channelMrkdwn(post.channel),
    postAuthorMrkdwn(post),
    countText(post.comments_count, 'comment'),
    slackTime(post.last_activity_at ?? post.created_at),
  ].filter((f): f is string => Boolean(f));
  return `${emoji} ${postTitleMrkdwn(post)}\n${facts.join(' · ')}`;
}

export function postList(page: Page<Post>, options: ListOptions): Rendered {
  return list({
    title: options.title,
    facts: totalFact(page),
    items: page.data.map((post) => postItem(post)),
    empty: 'No posts match.',
    emptyHint:
      options.emptyHint ?? 'Try without filters, another channel, or `unresolved` to see open posts only.',
    noun: 'post',
    paging: options.paging,
  });
}

export function channelList(page: Page<Channel>, options: ListOptions): Rendered {
  return list({
    title: options.title,
    facts: totalFact(page),
    items: page.data.map(
      (channel) => `*${channelMrkdwn(channel)}*  \`${escapeMrkdwn(oneLine(channel.id))}\``,
    ),
    empty: 'No channels match.',
    emptyHint: options.emptyHint ?? 'Try a shorter name, or no name to see every channel.',
    noun: 'channel',
    paging: options.paging,
  });
}

function memberItem(member: Member): string {
  const user = member.user;
  const name = oneLine(user.display_name ?? '') || oneLine(user.email ?? '') || user.id;
  const details = [
    user.email ? escapeMrkdwn(oneLine(user.email)) : undefined,
    member.role ? escapeMrkdwn(oneLine(member.role)) : undefined,
  ]
    .filter((d): d is string => Boolean(d))
    .join(' · ');
  const deactivated = member.is_deactivated ? ' _(deactivated)_' : '';
  return `*${escapeMrkdwn(name)}*${deactivated}${details ? `\n${details}` : ''}`;
}

export function memberList(page: Page<Member>, options: ListOptions): Rendered {
  return list({
    title: options.title,
    facts: totalFact(page),
    items: page.data.map(memberItem),
    empty: 'No members match.',
    emptyHint: options.emptyHint ?? 'Try part of a name or email, or `role:admin,guest` to filter by role.',
    noun: 'member',
    paging: options.paging,
  });
}

function messageItem(message: Message): string {
  const when = slackTime(message.created_at);
  const content = contentToMrkdwn(message.content) || '_(no content)_';
  return `*${authorMrkdwn(message.author)}*${when ? ` · ${when}` : ''}\n${content}`;
}

export function messageList(page: Page<Message>, options: MessageListOptions): Rendered {
  const thread = options.thread;
  const facts = [
    ...(thread?.title ? [`*${escapeMrkdwn(oneLine(thread.title))}*`] : []),
    ...(thread ? [`thread \`${escapeMrkdwn(oneLine(thread.id))}\``] : []),
    ...(thread?.members_count != null ? [countText(thread.members_count, 'member') ?? ''] : []),
    ...totalFact(page).map((t) => t.replace('in all', 'messages in all')),
  ];
  return list({
    title: options.title,
    facts,
    items: page.data.map((message) => messageItem(message)),
    empty: 'No messages here yet.',
    emptyHint: options.emptyHint ?? 'Messages written to this thread will show here.',
    noun: 'message',
    paging: options.paging,
  });
}
