/** Test helpers: plain HTTP calls to a running Slack stand-in, as a Web API client makes them. */
import type { SlackStandIn } from '../../../src/sandbox/slack/index.ts';

export interface Answer {
  status: number;
  /** `Retry-After`, when the stand-in sent one. */
  retryAfter: string | null;
  json: Record<string, unknown>;
}

export const BOT_TOKEN = 'xoxb-test-local';

async function answerOf(response: Response): Promise<Answer> {
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    json: (await response.json()) as Record<string, unknown>,
  };
}

/** A Web API call, form-encoded with a bearer token (JSON-encoded objects as Slack's clients send them). */
export async function api(
  slack: SlackStandIn,
  method: string,
  args: Record<string, unknown> = {},
  token: string = BOT_TOKEN,
): Promise<Answer> {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    form.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return answerOf(
    await fetch(`${slack.url}${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
      body: form.toString(),
    }),
  );
}

/** A POST to a response URL, as Bolt's `respond` sends it. */
export async function respond(url: string, body: Record<string, unknown> = { text: 'ok' }): Promise<Answer> {
  return answerOf(
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

/** `count` calls of `method` in a row; their statuses. */
export async function statuses(
  slack: SlackStandIn,
  count: number,
  method: string,
  args: (i: number) => Record<string, unknown> = () => ({}),
  token?: string,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await api(slack, method, args(i), token)).status);
  return out;
}

export const MODAL = {
  type: 'modal',
  callback_id: 'comment',
  title: { type: 'plain_text', text: 'Comment' },
  blocks: [],
};
