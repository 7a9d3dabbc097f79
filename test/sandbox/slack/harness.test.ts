/**
 * The integration harness plays Slack faithfully for the stand-in's rules: what it sends (a
 * command, an interaction, an event) is issued to the stand-in as it is sent, so trigger_ids and
 * workflow tokens age from then.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS } from '../../../src/render/ids.ts';
import { blockActions, functionExecuted } from '../../../src/sandbox/slack/index.ts';
import { type Harness, startHarness } from '../../support/harness.ts';
import { manualClock } from '../emulator/helpers.ts';
import { api, MODAL } from './helpers.ts';

describe('the harness with Slack rules on', () => {
  const clock = manualClock(new Date().toISOString());
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      worker: false,
      slack: { now: clock.now, rules: { triggerIdLifetime: true, workflowTokenLifetime: true } },
    });
  });
  afterAll(() => h.close());

  const open = (trigger_id: string) => api(h.slack, 'views.open', { trigger_id, view: MODAL });

  it("a command's trigger_id is issued as the command is sent", async () => {
    expect((await h.command('help', { triggerId: 'trigger-cmd' })).status).toBe(200);
    clock.tick(3_001);
    expect((await open('trigger-cmd')).json.error).toBe('expired_trigger_id');
  });

  it("an interaction's trigger_id is issued as it is sent", async () => {
    // A link button: the bot only acks it.
    const payload = blockActions({ user: 'U_ADA', actions: [{ action_id: ACTIONS.openPost }] });
    await h.interact(payload);
    clock.tick(3_001);
    expect((await open(payload.trigger_id)).json.error).toBe('expired_trigger_id');
  });

  it("a function_executed event's workflow token is issued as it is sent", async () => {
    const event = functionExecuted({ callbackId: 'create_post', title: 'Create a post', inputs: {} });
    await h.event(event as unknown as Record<string, unknown>);
    clock.tick(15 * 60_000 + 1);
    const late = await api(
      h.slack,
      'chat.postMessage',
      { channel: 'C_GENERAL', text: 'x' },
      event.bot_access_token,
    );
    expect(late.json.error).toBe('token_revoked');
  });
});
