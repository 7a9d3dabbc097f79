/**
 * Outcome messages: working on it, it went wrong (and how to fix it), done. Texts are escaped
 * here: `*bold*`, `_italic_` and emoji codes work, mentions and links from the text do not.
 */
import type { KnownBlock } from '@slack/types';
import { truncate } from './cut.ts';
import { LIMITS, md } from './limits.ts';
import { escapeMrkdwn, mrkdwnLink } from './text.ts';

export interface Outcome {
  text: string;
  blocks: KnownBlock[];
}

function outcome(
  emoji: string,
  text: string,
  extra: KnownBlock[] = [],
  link?: { url: string; label: string },
): Outcome {
  const body = `${emoji} ${escapeMrkdwn(text.trim())}${link ? ` ${mrkdwnLink(link.url, link.label)}` : ''}`;
  return {
    text: truncate(body, LIMITS.messageText),
    blocks: [{ type: 'section', text: md(body) }, ...extra],
  };
}

/** ":hourglass_flowing_sand: Creating the post…" */
export function working(text: string): Outcome {
  return outcome(':hourglass_flowing_sand:', text);
}

/** ":warning: what went wrong", with how to fix it below. */
export function problem(text: string, hint?: string): Outcome {
  const extra: KnownBlock[] = hint?.trim()
    ? [{ type: 'context', elements: [md(escapeMrkdwn(hint.trim()), LIMITS.contextText)] }]
    : [];
  return outcome(':warning:', text, extra);
}

/** ":white_check_mark: done", optionally with a link (e.g. to the post). */
export function success(text: string, options?: { link?: { url: string; label: string } }): Outcome {
  return outcome(':white_check_mark:', text, [], options?.link);
}
