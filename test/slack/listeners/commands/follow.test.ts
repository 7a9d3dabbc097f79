/**
 * `/collab follow` and `/collab unfollow` through signed requests into the real bot (web role,
 * no worker): the grammar, the admin gate (guard.ts), the job enqueued.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseCommand, SUBCOMMANDS } from '../../../../src/slack/listeners/commands/grammar.ts';
import { NOT_ALLOWED } from '../../../../src/slack/listeners/guard.ts';
import { ADA, GRACE, type Harness, SLACK_CHANNEL } from '../../../support/harness.ts';
import { type AckBody, expectNothingQueued, jobIdOf, onlyJob, useWebHarness } from '../support.ts';

let h: Harness;
useWebHarness((started) => {
  h = started;
});

async function command(text: string, user = ADA) {
  const triggerId = `trig-${randomBytes(6).toString('hex')}`;
  const response = await h.command(text, { triggerId, user });
  expect(response.status).toBe(200);
  return { ack: response.json<AckBody>(), triggerId };
}

describe('follow / unfollow', () => {
  it('parse with no arguments, and are in the help', () => {
    expect(parseCommand('follow')).toEqual({ ok: true, command: { kind: 'follow' } });
    expect(parseCommand('UNFOLLOW')).toEqual({ ok: true, command: { kind: 'unfollow' } });
    const refused = parseCommand('follow #engineering');
    expect(refused).toMatchObject({
      ok: false,
      error: expect.stringContaining("I don't know the filter `#engineering`"),
      usage: expect.stringContaining('/collab follow [unresolved] [no-apps]'),
    });
    expect(parseCommand('folow')).toMatchObject({
      ok: false,
      error: expect.stringContaining('/collab follow'),
    });
    expect(SUBCOMMANDS).toEqual(expect.arrayContaining(['follow', 'unfollow']));
  });

  it.each([
    ['follow', 'followChannel', 'Following the linked channel'],
    ['unfollow', 'unfollowChannel', 'Unfollowing'],
  ])('%s by an admin enqueues %s for this Slack channel', async (text, operation, note) => {
    const { ack, triggerId } = await command(text);
    expect(ack.text).toContain(note);
    const job = await onlyJob(h);
    expect(job.name).toBe(operation);
    expect(job.id).toBe(await jobIdOf(h, `cmd:${triggerId}`));
    expect(job.data).toEqual({
      origin: expect.objectContaining({ userId: ADA, slackChannel: SLACK_CHANNEL, source: 'command' }),
    });
  });

  it.each(['follow', 'unfollow'])(
    '%s by someone who is not an admin is refused; nothing is enqueued',
    async (text) => {
      const { ack } = await command(text, GRACE);
      expect(ack.text).toContain(NOT_ALLOWED);
      await expectNothingQueued(h);
    },
  );
});
