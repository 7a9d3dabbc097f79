/**
 * The slash command is configurable (SLASH_COMMAND): every help, hint and error names the one
 * people type — in the ack and in the worker's answers — and never a hard-coded `/collab`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../support/harness.ts';
import { type AckBody, shownText } from '../support.ts';

describe('a renamed slash command', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { SLASH_COMMAND: '/team' } });
  });
  afterAll(() => h.close());

  const ackOf = async (text: string) => {
    const response = await h.command(text);
    expect(response.status).toBe(200);
    return shownText(response.json<AckBody>());
  };

  /** What the worker answered for the next `operation`, through the response_url. */
  const answerOf = async (text: string, operation: string) => {
    const before = h.slack.responseUrlCalls.length;
    await ackOf(text);
    await h.nextSettled(operation);
    return h.slack.responseUrlCalls
      .slice(before)
      .map((c) => `${String(c.args.text ?? '')}\n${JSON.stringify(c.args.blocks ?? [])}`)
      .join('\n');
  };

  it.each([
    ['help', /`\/team post/],
    ['resolv 12', /`\/team resolve`/],
    ['link nowhere', /\/team link #channel/],
    ['digest list extra', /\/team digest/],
  ])('names it in the answer to %j', async (text, expected) => {
    const shown = await ackOf(text);
    expect(shown).toMatch(expected);
    expect(shown).not.toContain('/collab');
  });

  it.each([
    ['post #no-such-channel Hello | there', 'createPost', /`\/team channels`/],
    ['follow', 'followChannel', /`\/team link #engineering`/],
    ['post Hello | there', 'createPost', /`\/team post #engineering …`/],
  ])('names it in the worker’s answer to %j', async (text, operation, expected) => {
    const shown = await answerOf(text, operation);
    expect(shown).toMatch(expected);
    expect(shown).not.toContain('/collab');
  });
});
