/**
 * The rules Slack enforces on an app (SLACK-FACTS.md), each behind a switch. The stand-in is kind
 * by default (every rule off: every call answered at once, forever); a test turns on the rules it
 * is about, with Slack's numbers or with short windows of its own.
 */

export type SlackRuleName =
  | 'rateLimits'
  | 'responseUrlLifetime'
  | 'triggerIdLifetime'
  | 'workflowTokenLifetime';

export const SLACK_RULE_NAMES: readonly SlackRuleName[] = [
  'rateLimits',
  'responseUrlLifetime',
  'triggerIdLifetime',
  'workflowTokenLifetime',
];

/** A token bucket: `burst` calls at once after a quiet spell, then `perMinute` spread over the minute. */
export interface Allowance {
  perMinute: number;
  burst: number;
}

export type Tier = 1 | 2 | 3 | 4;

export interface RateLimitRule {
  /** Allowance of each tier, per (workspace, method). */
  tiers: Record<Tier, Allowance>;
  /** The tier of each method; a method not listed (auth.test, chat.getPermalink: "special") is not limited. */
  methods: Record<string, Tier>;
  /** `chat.postMessage` per (workspace, channel): about 1 a second, short bursts allowed. */
  postMessagePerChannel: Allowance;
  /** `chat.postMessage` per workspace, every channel together: "several hundred a minute". */
  postMessagePerWorkspace: Allowance;
  /**
   * false: the app is commercially distributed but not approved for the Slack Marketplace, so
   * `conversations.history` / `conversations.replies` get {@link RateLimitRule.unlistedHistory}
   * and at most {@link RateLimitRule.unlistedPageSize} messages a page (since 2025-05-29).
   */
  marketplaceApproved: boolean;
  unlistedHistory: Allowance;
  unlistedPageSize: number;
}

export interface ResponseUrlRule {
  /** Uses allowed; Slack: 5. */
  uses: number;
  /** From the interaction; Slack: 30 minutes. */
  lifetimeMs: number;
}

export interface TriggerIdRule {
  /** From the interaction, usable once; Slack: 3 s. */
  lifetimeMs: number;
}

export interface WorkflowTokenRule {
  /** From the `function_executed` that issued it, or until the step completes; Slack: 15 minutes. */
  lifetimeMs: number;
}

/** The rules in force: each one off (`false`) or on with its numbers. */
export interface SlackRules {
  rateLimits: RateLimitRule | false;
  responseUrlLifetime: ResponseUrlRule | false;
  triggerIdLifetime: TriggerIdRule | false;
  workflowTokenLifetime: WorkflowTokenRule | false;
}

/** What a test asks for: each rule `true` (Slack's numbers), `false`, or numbers of its own. */
export interface SlackRulesSwitches {
  rateLimits?: boolean | RateLimitOverrides;
  responseUrlLifetime?: boolean | Partial<ResponseUrlRule>;
  triggerIdLifetime?: boolean | Partial<TriggerIdRule>;
  workflowTokenLifetime?: boolean | Partial<WorkflowTokenRule>;
}

export interface RateLimitOverrides extends Partial<Omit<RateLimitRule, 'tiers' | 'methods'>> {
  tiers?: Partial<Record<Tier, Allowance>>;
  methods?: Record<string, Tier>;
}

/** `'strict'`: every rule with Slack's numbers; `'off'`: none (the kind stand-in). */
export type SlackRulesInput = 'strict' | 'off' | SlackRulesSwitches;

/** Methods by tier, from Slack's method pages (as tabled in slackapi/java-slack-sdk `MethodsRateLimits.java`). */
const TIER_METHODS: Record<Tier, readonly string[]> = {
  1: ['apps.connections.open'],
  2: ['users.list', 'conversations.list'],
  3: [
    'chat.update',
    'chat.delete',
    'chat.unfurl',
    'users.lookupByEmail',
    'conversations.replies',
    'conversations.history',
    'conversations.info',
    'conversations.join',
    'conversations.open',
    'reactions.add',
    'functions.completeSuccess',
    'functions.completeError',
    'team.info',
  ],
  4: [
    'chat.postEphemeral',
    'views.open',
    'views.update',
    'views.push',
    'views.publish',
    'users.info',
    'users.profile.get',
    'conversations.members',
    'oauth.v2.access',
  ],
};

function methodTiers(): Record<string, Tier> {
  const methods: Record<string, Tier> = {};
  for (const tier of [1, 2, 3, 4] as const) for (const method of TIER_METHODS[tier]) methods[method] = tier;
  return methods;
}

/** Slack's published numbers (docs.slack.dev/apis/web-api/rate-limits and the lifetimes' pages). */
export const SLACK_NUMBERS: {
  rateLimits: RateLimitRule;
  responseUrlLifetime: ResponseUrlRule;
  triggerIdLifetime: TriggerIdRule;
  workflowTokenLifetime: WorkflowTokenRule;
} = {
  rateLimits: {
    // "Tier N: M+ per minute, occasional bursts of more than M": a bucket of M, refilled M a minute.
    tiers: {
      1: { perMinute: 1, burst: 1 },
      2: { perMinute: 20, burst: 20 },
      3: { perMinute: 50, burst: 50 },
      4: { perMinute: 100, burst: 100 },
    },
    methods: methodTiers(),
    postMessagePerChannel: { perMinute: 60, burst: 3 },
    postMessagePerWorkspace: { perMinute: 300, burst: 300 },
    marketplaceApproved: true,
    unlistedHistory: { perMinute: 1, burst: 1 },
    unlistedPageSize: 15,
  },
  responseUrlLifetime: { uses: 5, lifetimeMs: 30 * 60_000 },
  triggerIdLifetime: { lifetimeMs: 3_000 },
  workflowTokenLifetime: { lifetimeMs: 15 * 60_000 },
};

/** The kind stand-in: no rule enforced. */
export const KIND_RULES: SlackRules = {
  rateLimits: false,
  responseUrlLifetime: false,
  triggerIdLifetime: false,
  workflowTokenLifetime: false,
};

function rateLimitRule(input: boolean | RateLimitOverrides): RateLimitRule | false {
  if (input === false) return false;
  const base = SLACK_NUMBERS.rateLimits;
  if (input === true) return structuredClone(base);
  const { tiers, methods, ...rest } = input;
  return {
    ...structuredClone(base),
    ...rest,
    tiers: { ...base.tiers, ...tiers },
    methods: { ...base.methods, ...methods },
  };
}

function simpleRule<T extends object>(input: boolean | Partial<T>, base: T): T | false {
  if (input === false) return false;
  return input === true ? { ...base } : { ...base, ...input };
}

/** The rules `input` asks for, starting from `current` (rules it does not name stay as they are). */
export function resolveRules(
  input: SlackRulesInput | undefined,
  current: SlackRules = KIND_RULES,
): SlackRules {
  if (input === undefined) return { ...current };
  if (input === 'off') return { ...KIND_RULES };
  const switches: SlackRulesSwitches =
    input === 'strict' ? Object.fromEntries(SLACK_RULE_NAMES.map((name) => [name, true])) : input;
  const n = SLACK_NUMBERS;
  return {
    rateLimits: switches.rateLimits === undefined ? current.rateLimits : rateLimitRule(switches.rateLimits),
    responseUrlLifetime:
      switches.responseUrlLifetime === undefined
        ? current.responseUrlLifetime
        : simpleRule(switches.responseUrlLifetime, n.responseUrlLifetime),
    triggerIdLifetime:
      switches.triggerIdLifetime === undefined
        ? current.triggerIdLifetime
        : simpleRule(switches.triggerIdLifetime, n.triggerIdLifetime),
    workflowTokenLifetime:
      switches.workflowTokenLifetime === undefined
        ? current.workflowTokenLifetime
        : simpleRule(switches.workflowTokenLifetime, n.workflowTokenLifetime),
  };
}

/** The rules named in force, for logs and the console: `rateLimits, triggerIdLifetime` or `none`. */
export function describeRules(rules: SlackRules): string {
  const on = SLACK_RULE_NAMES.filter((name) => rules[name] !== false);
  return on.length === 0 ? 'none' : on.join(', ');
}

/**
 * Reads a rules setting as written in the environment: `strict` (or `on`, `all`), `off` (or
 * `none`), or rule names separated by commas (each on with Slack's numbers). Blank: `fallback`.
 * Throws on a name it does not know, listing the ones it does.
 */
export function parseRulesSetting(value: string | undefined, fallback: SlackRulesInput): SlackRulesInput {
  const text = (value ?? '').trim();
  if (text === '') return fallback;
  const lower = text.toLowerCase();
  if (lower === 'strict' || lower === 'on' || lower === 'all') return 'strict';
  if (lower === 'off' || lower === 'none') return 'off';
  const switches: SlackRulesSwitches = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const name = SLACK_RULE_NAMES.find((known) => known.toLowerCase() === part.toLowerCase());
    if (name === undefined) {
      throw new Error(
        `Unknown Slack rule ${JSON.stringify(part)}: use strict, off, or a comma-separated list of ${SLACK_RULE_NAMES.join(', ')}.`,
      );
    }
    switches[name] = true;
  }
  return { ...Object.fromEntries(SLACK_RULE_NAMES.map((name) => [name, false])), ...switches };
}
