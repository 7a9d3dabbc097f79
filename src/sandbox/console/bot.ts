/**
 * The console's line to the bot: what Slack would send to the bot's `/slack/events`, signed with
 * the sandbox's signing secret, and the bot's answer as Slack would read it.
 */
import { eventBody, interactionBody, signSlackRequest } from '../slack/index.ts';

export interface BotAnswer {
  status: number;
  /** the answer's JSON, or its text when it is not JSON */
  body: unknown;
}

export class BotLink {
  constructor(
    private readonly settings: { botUrl: string; signingSecret: string; teamId: string; botUserId: string },
  ) {}

  /** A signed request, as a form (slash commands, interactions) or as JSON (events). */
  async post(kind: 'form' | 'json', body: string): Promise<BotAnswer> {
    const headers = {
      'content-type': kind === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
      ...signSlackRequest(this.settings.signingSecret, body),
    };
    const res = await fetch(this.settings.botUrl, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    if (text.trim().startsWith('{')) {
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, body: parsed };
  }

  /** An interaction payload (block_actions, shortcuts, suggestions, submissions). */
  interact(payload: object): Promise<BotAnswer> {
    return this.post('form', interactionBody(payload));
  }

  /** An Events API event, in the envelope Slack wraps it in. */
  event(event: { type: string }): Promise<BotAnswer> {
    const { teamId, botUserId } = this.settings;
    return this.post('json', eventBody(event, { team_id: teamId, botUserId }));
  }
}
