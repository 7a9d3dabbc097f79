/**
 * Slack's rules in the harnesses' stand-in: none unless a test asks for some (`slack.rules`), or
 * TEST_SLACK_RULES names them for a whole run (`strict`, `off`, or rule names separated by
 * commas) — to see how the bot fares against a Slack that enforces them:
 *
 *     TEST_SLACK_RULES=strict npx vitest run test/jobs
 */
import { parseRulesSetting, type SlackStandInOptions } from '../../src/sandbox/slack/index.ts';

/** `options` with the rules of the run when the test names none. */
export function standInOptions(options: SlackStandInOptions): SlackStandInOptions {
  return { rules: parseRulesSetting(process.env.TEST_SLACK_RULES, 'off'), ...options };
}
