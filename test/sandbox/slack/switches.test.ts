/**
 * Each of Slack's rules is behind a switch: the stand-in is kind by default, a rule refuses only
 * while it is on, and the other rules never stand in for it. One scenario per rule, run with the
 * rule alone on, with every rule but it on, and with none.
 */
import { describe, expect, it } from 'vitest';
import {
  eventEnvelope,
  functionExecuted,
  KIND_RULES,
  parseRulesSetting,
  resolveRules,
  SLACK_NUMBERS,
  SLACK_RULE_NAMES,
  type SlackRuleName,
  type SlackRulesInput,
  type SlackStandIn,
  startSlackStandIn,
} from '../../../src/sandbox/slack/index.ts';
import { type ManualClock, manualClock } from '../emulator/helpers.ts';
import { api, MODAL, respond } from './helpers.ts';

/** Does what the rule forbids; true if the stand-in refused it. */
const SCENARIOS: Record<SlackRuleName, (slack: SlackStandIn, clock: ManualClock) => Promise<boolean>> = {
  async rateLimits(slack) {
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push(await api(slack, 'chat.postMessage', { channel: 'C_ONE', text: 'x' }));
    return answers.some((answer) => answer.status === 429);
  },
  async responseUrlLifetime(slack) {
    const url = slack.responseUrl();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await respond(url));
    return answers.some((answer) => answer.status !== 200);
  },
  async triggerIdLifetime(slack) {
    const trigger = slack.triggerId();
    await api(slack, 'views.open', { trigger_id: trigger, view: MODAL });
    return (await api(slack, 'views.open', { trigger_id: trigger, view: MODAL })).json.ok !== true;
  },
  async workflowTokenLifetime(slack, clock) {
    const event = functionExecuted({ callbackId: 'step', title: 'Step', inputs: {} });
    slack.issue(eventEnvelope(event));
    clock.tick(16 * 60_000);
    const answer = await api(
      slack,
      'chat.postMessage',
      { channel: 'C_TWO', text: 'x' },
      event.bot_access_token,
    );
    return answer.json.ok !== true;
  },
};

async function refused(rule: SlackRuleName, rules: SlackRulesInput | undefined): Promise<boolean> {
  const clock = manualClock();
  const slack = await startSlackStandIn({ now: clock.now, ...(rules === undefined ? {} : { rules }) });
  try {
    return await SCENARIOS[rule](slack, clock);
  } finally {
    await slack.close();
  }
}

const allBut = (rule: SlackRuleName): SlackRulesInput =>
  Object.fromEntries(SLACK_RULE_NAMES.map((name) => [name, name !== rule]));

describe('Slack rules, each behind its switch', () => {
  it.each(SLACK_RULE_NAMES)('%s: refuses with it alone on', async (rule) => {
    expect(await refused(rule, { [rule]: true })).toBe(true);
  });

  it.each(SLACK_RULE_NAMES)('%s: off, with every other rule on, lets the call through', async (rule) => {
    expect(await refused(rule, allBut(rule))).toBe(false);
  });

  it.each(SLACK_RULE_NAMES)('%s: off by default (the kind stand-in)', async (rule) => {
    expect(await refused(rule, undefined)).toBe(false);
  });

  it.each(SLACK_RULE_NAMES)("%s: on with 'strict'", async (rule) => {
    expect(await refused(rule, 'strict')).toBe(true);
  });

  it('setRules switches a rule from now on; what came before still counts; reset keeps the rules', async () => {
    const slack = await startSlackStandIn();
    try {
      const url = slack.responseUrl();
      for (let i = 0; i < 5; i++) expect((await respond(url)).status).toBe(200);
      expect(slack.setRules({ responseUrlLifetime: true }).responseUrlLifetime).toEqual(
        SLACK_NUMBERS.responseUrlLifetime,
      );
      expect((await respond(url)).json.error).toBe('used_url');
      slack.setRules({ responseUrlLifetime: false });
      expect((await respond(url)).status).toBe(200);
      slack.setRules({ triggerIdLifetime: true });
      slack.reset();
      expect(slack.rules).toEqual({ ...KIND_RULES, triggerIdLifetime: SLACK_NUMBERS.triggerIdLifetime });
    } finally {
      await slack.close();
    }
  });
});

describe('numbers of the rules', () => {
  it.each([
    ['true takes Slack numbers', { triggerIdLifetime: true }, { triggerIdLifetime: { lifetimeMs: 3_000 } }],
    [
      'numbers of its own keep the rest of Slack numbers',
      { responseUrlLifetime: { uses: 2 } },
      { responseUrlLifetime: { uses: 2, lifetimeMs: 30 * 60_000 } },
    ],
    [
      'one tier of its own keeps the other tiers',
      { rateLimits: { tiers: { 3: { perMinute: 5, burst: 1 } } } },
      {
        rateLimits: expect.objectContaining({
          tiers: { ...SLACK_NUMBERS.rateLimits.tiers, 3: { perMinute: 5, burst: 1 } },
          methods: SLACK_NUMBERS.rateLimits.methods,
        }),
      },
    ],
    ['off switches everything off', 'off', KIND_RULES],
  ] as const)('%s', (_name, input, expected) => {
    expect(resolveRules(input as SlackRulesInput, resolveRules('strict'))).toMatchObject(expected);
  });

  it.each([
    ['', 'strict', 'strict'],
    [' Strict ', 'off', 'strict'],
    ['on', 'off', 'strict'],
    ['none', 'strict', 'off'],
    [
      'rateLimits, triggeridlifetime',
      'off',
      { rateLimits: true, responseUrlLifetime: false, triggerIdLifetime: true, workflowTokenLifetime: false },
    ],
  ] as const)('the setting %j (fallback %s) reads as %j', (value, fallback, expected) => {
    expect(parseRulesSetting(value, fallback)).toEqual(expected);
  });

  it('an unknown rule name is refused with the names it knows', () => {
    expect(() => parseRulesSetting('rateLimits,retryAfter', 'off')).toThrow(
      /Unknown Slack rule "retryAfter".*rateLimits, responseUrlLifetime, triggerIdLifetime, workflowTokenLifetime/,
    );
  });
});
