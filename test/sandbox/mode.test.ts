import { describe, expect, it } from 'vitest';
import { describePlan, sandboxPlan } from '../../src/sandbox/mode.ts';

describe('sandboxPlan: what npm start emulates', () => {
  it('nothing configured: local Slack and the emulator', () => {
    expect(sandboxPlan({})).toEqual({ slack: 'local', collab: 'emulator' });
    expect(describePlan({ slack: 'local', collab: 'emulator' })).toBe(
      'local Slack stand-in + emulated collaboration API',
    );
  });

  it('a real collaboration API without Slack credentials: local Slack, real API', () => {
    expect(sandboxPlan({ COLLAB_API_URL: 'https://collab.example', COLLAB_API_KEY: 'k' })).toEqual({
      slack: 'local',
      collab: 'real',
    });
  });

  it('real Slack (HTTP or Socket Mode) without a collaboration API: the emulator', () => {
    expect(sandboxPlan({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' })).toEqual({
      slack: 'real',
      collab: 'emulator',
    });
    expect(sandboxPlan({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' })).toEqual({
      slack: 'real',
      collab: 'emulator',
    });
  });

  it('everything configured, an incomplete Slack configuration, or multi-workspace mode: a normal start', () => {
    expect(
      sandboxPlan({
        SLACK_BOT_TOKEN: 'xoxb-1',
        SLACK_SIGNING_SECRET: 's',
        COLLAB_API_URL: 'https://collab.example',
        COLLAB_API_KEY: 'k',
      }),
    ).toBeUndefined();
    expect(sandboxPlan({ SLACK_BOT_TOKEN: 'xoxb-1' })).toBeUndefined();
    expect(sandboxPlan({ SLACK_CLIENT_ID: '123.456' })).toBeUndefined();
  });

  it('blank values count as unset', () => {
    expect(sandboxPlan({ SLACK_BOT_TOKEN: ' ', COLLAB_API_URL: '' })).toEqual({
      slack: 'local',
      collab: 'emulator',
    });
  });
});
