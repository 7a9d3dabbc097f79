/**
 * A message of a chat thread mirrored into Slack, attributed: "*Grace Hopper*: …". The content's
 * format is "not shown", so it goes through contentToMrkdwn (escaped: it cannot ping anyone). Pure.
 */
import type { KnownBlock } from '@slack/types';
import type { Message } from '../collab/schemas.ts';
import { contentToMrkdwn } from './content.ts';
import { cutPlain, truncate } from './cut.ts';
import { LIMITS, md } from './limits.ts';
import { escapeMrkdwn, mrkdwnToPlain, oneLine } from './text.ts';

/** The name a message is attributed to: its author's name, else their id, else "Someone". */
export function messageAuthorName(message: Pick<Message, 'author'>): string {
  const author = message.author;
  return oneLine(author?.name ?? '') || author?.id || 'Someone';
}

export function mirroredMessage(message: Message): { text: string; blocks: KnownBlock[] } {
  const name = messageAuthorName(message);
  const content = contentToMrkdwn(message.content) || '_(no text)_';
  const head = `*${escapeMrkdwn(name)}*: `;
  const body = truncate(content, LIMITS.sectionText - head.length);
  const mrkdwn = `${head}${body}`;
  return {
    // The fallback (notifications) is escaped too: nothing from the service may ping anyone.
    text: escapeMrkdwn(cutPlain(`${name}: ${mrkdwnToPlain(content)}`, 3000)),
    blocks: [{ type: 'section', text: md(mrkdwn) }],
  };
}
