/**
 * App Home shows no raw Slack syntax: the audit line of `/collab link #general with replies`
 * reads "#general with replies", not Slack's escaped `<#C0GENERAL|general>`; times are date tokens.
 */
import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { commandWords, homeView } from '../../src/render/home.ts';
import { allTexts } from '../support/blockKit.ts';

describe('App Home audit', () => {
  it('shows the command as typed, mentions as names, the time as a date token', () => {
    const view = homeView({
      teamId: 'T1',
      userId: 'U1',
      mode: 'single',
      canManage: true,
      command: '/collab',
      audit: [
        {
          at: '2026-11-23T08:00:00.000Z',
          userId: 'U0ADA',
          action: 'link requested',
          slackChannel: 'C0GENERAL',
          detail: '<#C0GENERAL|general> with replies',
        },
      ],
    });
    const text = allTexts(view.blocks as KnownBlock[]).join('\n');
    expect(text).toContain(
      '<!date^1795420800^{date_short_pretty} at {time}|2026-11-23 08:00 UTC> <@U0ADA> link requested in <#C0GENERAL>: #general with replies',
    );
    expect(text).not.toContain('|general>');
  });

  it('reads Slack’s escapes back into what the person typed', () => {
    expect(commandWords('dm <@U1|grace> see <https://x.example/a|the doc> &amp; <https://y.example>')).toBe(
      'dm @grace see the doc & https://y.example',
    );
  });
});
