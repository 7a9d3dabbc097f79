/**
 * App Home. The view is a list of sections, each a pure function of the state: other features
 * (followed channels, digests) add a section to {@link HOME_SECTIONS} or pass their own list.
 * The connect modal lives here too: it never carries the API key back to Slack.
 */
import type { HomeView, KnownBlock, View } from '@slack/types';
import { ACTIVITY_SECTIONS } from './homeSections.ts';
import type { HomeSection, HomeState } from './homeState.ts';
import { ACTIONS, INPUTS, VIEWS } from './ids.ts';
import { LIMITS, md, plain } from './limits.ts';
import { escapeMrkdwn } from './text.ts';
import { slackTime } from './time.ts';

const AUDIT_SHOWN = 10;

/**
 * A command's text as the person typed it: Slack's escaped mentions (`<#C123|general>`,
 * `<@U123|ada>`, `<https://…|label>`) back to `#general`, `@ada`, the label.
 */
export function commandWords(text: string): string {
  return text
    .replace(/<#[CG][A-Z0-9]+\|([^>]*)>/g, '#$1')
    .replace(/<@[UW][A-Z0-9]+\|([^>]*)>/g, '@$1')
    .replace(/<(https?:\/\/[^|>]+)\|([^>]+)>/g, '$2')
    .replace(/<(https?:\/\/[^|>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export const welcomeSection: HomeSection = (state) => [
  { type: 'header', text: plain('Collab', LIMITS.headerText) },
  {
    type: 'section',
    text: md(
      `Post, resolve, comment and message through the collaboration service without leaving Slack. Type \`${state.command} help\` in any channel to start.`,
    ),
  },
];

export const connectionSection: HomeSection = (state) => {
  const blocks: KnownBlock[] = [
    { type: 'divider' },
    { type: 'header', text: plain('Connection', LIMITS.headerText) },
  ];
  const c = state.connection;
  if (state.mode === 'single') {
    blocks.push({
      type: 'section',
      text: md(
        ':large_green_circle: Connected to the collaboration service by this deployment’s configuration.',
      ),
    });
    return blocks;
  }
  blocks.push({
    type: 'section',
    text: md(
      c
        ? `:large_green_circle: Connected to *${escapeMrkdwn(c.baseUrl)}* by <@${c.connectedBy}>, ${slackTime(c.connectedAt)}.`
        : ':white_circle: This workspace is not connected to the collaboration service yet.',
    ),
  });
  if (state.canManage) {
    blocks.push({
      type: 'actions',
      block_id: 'connection_actions',
      elements: [
        {
          type: 'button',
          action_id: ACTIONS.connect,
          text: plain(c ? 'Reconnect' : 'Connect', LIMITS.buttonText),
          ...(c ? {} : { style: 'primary' as const }),
        },
        ...(c
          ? [
              {
                type: 'button' as const,
                action_id: ACTIONS.disconnect,
                style: 'danger' as const,
                text: plain('Disconnect', LIMITS.buttonText),
                confirm: {
                  title: plain('Disconnect?', 100),
                  text: plain(
                    'Commands stop working in this workspace until an admin connects it again. The saved API key is deleted.',
                    300,
                  ),
                  confirm: plain('Disconnect', 30),
                  deny: plain('Cancel', 30),
                },
              },
            ]
          : []),
      ],
    });
  } else {
    blocks.push({
      type: 'context',
      elements: [
        md('Only workspace admins and owners (or people the app’s operator named) can change this.'),
      ],
    });
  }
  return blocks;
};

export const auditSection: HomeSection = (state) => {
  if (!state.canManage) return [];
  const lines = state.audit
    .slice(0, AUDIT_SHOWN)
    .map(
      (e) =>
        `• ${slackTime(e.at)} <@${e.userId}> ${escapeMrkdwn(e.action)}${e.slackChannel ? ` in <#${e.slackChannel}>` : ''}${e.detail ? `: ${escapeMrkdwn(commandWords(e.detail))}` : ''}`,
    );
  return [
    { type: 'divider' },
    { type: 'header', text: plain('Recent settings changes', LIMITS.headerText) },
    { type: 'section', text: md(lines.length > 0 ? lines.join('\n') : '_None yet._') },
  ];
};

/** The sections, in order. Add a feature's section here (or pass a list to {@link homeView}). */
export const HOME_SECTIONS: readonly HomeSection[] = [
  welcomeSection,
  connectionSection,
  ...ACTIVITY_SECTIONS,
  auditSection,
];

export function homeView(state: HomeState, sections: readonly HomeSection[] = HOME_SECTIONS): HomeView {
  return { type: 'home', blocks: sections.flatMap((section) => section(state)).slice(0, 100) };
}

/**
 * The connect modal. The API key input never has an initial value: a saved key is only said to
 * exist, and leaving the field empty on a reconnect keeps it.
 */
export function connectModal(options: { baseUrl?: string | undefined; keySaved: boolean }): View {
  return {
    type: 'modal',
    callback_id: VIEWS.connect,
    title: plain('Connect the service', LIMITS.modalTitle),
    submit: plain('Connect', LIMITS.modalButton),
    close: plain('Cancel', LIMITS.modalButton),
    blocks: [
      {
        type: 'input',
        block_id: INPUTS.baseUrl.block,
        label: plain('Base URL of the service', 2000),
        hint: plain(
          'The address your organisation’s collaboration service gave you, e.g. https://collab.example.com',
          2000,
        ),
        element: {
          type: 'url_text_input',
          action_id: INPUTS.baseUrl.action,
          ...(options.baseUrl ? { initial_value: options.baseUrl } : {}),
        },
      },
      {
        type: 'input',
        block_id: INPUTS.apiKey.block,
        optional: options.keySaved,
        label: plain('API key', 2000),
        hint: plain(
          options.keySaved
            ? 'A key is saved. Leave this empty to keep it (only while the URL stays on the same server), or paste a new one to replace it.'
            : 'The organisation’s API key. It is checked with a harmless call, then stored encrypted.',
          2000,
        ),
        element: { type: 'plain_text_input', action_id: INPUTS.apiKey.action },
      },
    ],
  };
}
