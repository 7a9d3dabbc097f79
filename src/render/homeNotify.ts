/** App Home section of a person's own notifications: on or off, with the button that turns them over. */
import type { KnownBlock } from '@slack/types';
import { ACTIONS } from './ids.ts';
import { LIMITS, md, plain } from './limits.ts';
import { escapeMrkdwn } from './text.ts';

export interface NotifyShown {
  on: boolean;
  tz?: string | undefined;
}

/** A Home section (home.ts) over the part of the state it reads. */
export const notifySection = (state: {
  activity?: { notify?: NotifyShown | undefined } | undefined;
}): KnownBlock[] => {
  const notify = state.activity?.notify;
  if (!state.activity) return [];
  const on = notify?.on === true;
  const words = on
    ? `:bell: *Notifications on.* I DM you when your posts are commented on or resolved; quiet 22:00–08:00${notify?.tz ? ` (${escapeMrkdwn(notify.tz)})` : ''}, then one summary.`
    : ':no_bell: *Notifications off.* Turn them on to hear by DM when your posts are commented on or resolved.';
  return [
    { type: 'divider' },
    { type: 'header', text: plain('Your notifications', LIMITS.headerText) },
    {
      type: 'section',
      block_id: 'home_notify',
      text: md(words),
      accessory: {
        type: 'button',
        action_id: ACTIONS.homeNotify,
        value: on ? 'off' : 'on',
        text: plain(on ? 'Turn off' : 'Turn on', LIMITS.buttonText),
        ...(on ? {} : { style: 'primary' as const }),
      },
    },
  ];
};
