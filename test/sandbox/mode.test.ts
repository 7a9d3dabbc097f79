import { describe, expect, it } from 'vitest';
import { chooseStart, describePlan } from '../../src/sandbox/mode.ts';

describe('chooseStart: what npm start runs', () => {
  it('nothing configured: local Slack and the emulator', () => {
    expect(chooseStart({})).toEqual({ kind: 'sandbox', plan: { slack: 'local', collab: 'emulator' } });
    expect(describePlan({ slack: 'local', collab: 'emulator' })).toBe(
      'local Slack stand-in + emulated collaboration API',
    );
    // Settings that are not credentials keep it a sandbox.
    expect(chooseStart({ PORT: '4000', REDIS_URL: 'redis://127.0.0.1:6379', LOG_LEVEL: 'debug' }).kind).toBe(
      'sandbox',
    );
  });

  it('any partial configuration without SANDBOX: the bot, which names what is missing', () => {
    for (const env of [
      { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' },
      { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' },
      { COLLAB_API_URL: 'https://collab.example', COLLAB_API_KEY: 'k' },
      { SLACK_SIGNING_SECRET: 's' },
      { SLACK_CLIENT_ID: '123.456' },
      { COLLAB_API_KEY: 'k' },
    ]) {
      expect(chooseStart(env), JSON.stringify(env)).toEqual({ kind: 'bot' });
    }
  });

  it('SANDBOX=collab pairs the configured Slack with the emulator, and says so', () => {
    const choice = chooseStart({ SANDBOX: 'collab', SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' });
    expect(choice).toEqual({ kind: 'sandbox', plan: { slack: 'real', collab: 'emulator', asked: 'collab' } });
    if (choice.kind !== 'sandbox') throw new Error('no plan');
    expect(describePlan(choice.plan)).toBe('real Slack + emulated collaboration API (SANDBOX=collab)');
    expect(
      chooseStart({ SANDBOX: 'collab', SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' }).kind,
    ).toBe('sandbox');
  });

  it('SANDBOX=slack pairs the local stand-in with the configured service; SANDBOX=all emulates both', () => {
    expect(
      chooseStart({ SANDBOX: 'slack', COLLAB_API_URL: 'https://collab.example', COLLAB_API_KEY: 'k' }),
    ).toEqual({ kind: 'sandbox', plan: { slack: 'local', collab: 'real', asked: 'slack' } });
    expect(
      chooseStart({ SANDBOX: 'all', SLACK_BOT_TOKEN: 'xoxb-1', COLLAB_API_URL: 'https://x.example' }),
    ).toEqual({ kind: 'sandbox', plan: { slack: 'local', collab: 'emulator', asked: 'all' } });
  });

  it('an asked-for part with its real half incomplete, or an unknown part: an error naming what is missing', () => {
    const collab = chooseStart({ SANDBOX: 'collab', SLACK_SIGNING_SECRET: 's' });
    expect(collab.kind).toBe('error');
    expect(JSON.stringify(collab)).toContain('SLACK_BOT_TOKEN');
    const slack = chooseStart({ SANDBOX: 'slack', COLLAB_API_URL: 'https://collab.example' });
    expect(JSON.stringify(slack)).toContain('COLLAB_API_KEY');
    expect(JSON.stringify(slack)).not.toContain('COLLAB_API_URL is missing');
    expect(chooseStart({ SANDBOX: 'yes' }).kind).toBe('error');
  });

  it('blank values count as unset', () => {
    expect(chooseStart({ SLACK_BOT_TOKEN: ' ', COLLAB_API_URL: '', SANDBOX: ' ' })).toEqual({
      kind: 'sandbox',
      plan: { slack: 'local', collab: 'emulator' },
    });
  });
});
