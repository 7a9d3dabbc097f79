/**
 * Slack's Block Kit limits (the real ones: the service shows none, DESIGN.md), and text objects
 * already cut to them.
 */
import type { MrkdwnElement, PlainTextElement } from '@slack/types';
import { cutPlain, truncate } from './cut.ts';
import { withoutControls } from './text.ts';

export const LIMITS = {
  /** `text` of a section, and of any text object without a smaller limit */
  sectionText: 3000,
  /** each of a section's `fields` */
  fieldText: 2000,
  sectionFields: 10,
  headerText: 150,
  buttonText: 75,
  buttonValue: 2000,
  buttonUrl: 3000,
  actionId: 255,
  blockId: 255,
  actionsElements: 25,
  contextElements: 10,
  contextText: 3000,
  optionText: 75,
  optionValue: 150,
  options: 100,
  placeholder: 150,
  inputLabel: 2000,
  inputHint: 2000,
  plainTextInputMaxLength: 3000,
  messageBlocks: 50,
  modalBlocks: 100,
  messageText: 40000,
  modalTitle: 24,
  modalButton: 24,
  privateMetadata: 3000,
  callbackId: 255,
} as const;

/** A `plain_text` object cut to `max` (never empty: Slack refuses empty text), without control characters. */
export function plain(text: string, max: number = LIMITS.sectionText): PlainTextElement {
  const cut = cutPlain(withoutControls(text), max);
  return { type: 'plain_text', text: cut.trim() ? cut : ' ', emoji: true };
}

/** A `mrkdwn` object cut to `max` (the text is already escaped mrkdwn). */
export function md(text: string, max: number = LIMITS.sectionText): MrkdwnElement {
  const cut = truncate(text, max);
  return { type: 'mrkdwn', text: cut.trim() ? cut : ' ' };
}
