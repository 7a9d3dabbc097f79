/**
 * How an outcome reaches the person: the interaction's response_url while Slack honours it
 * (30 minutes), else chat.postEphemeral in the Slack channel, else a DM from the app; a Slack
 * error while telling never makes the operation run again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsOf, originOf, responses, run } from '../jobs/helpers.ts';
import { ADA, type Harness, startHarness } from '../support/harness.ts';

describe('outcome delivery', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('answers through the response_url while it is valid', async () => {
    const origin = originOf(h);
    expect((await run(h, 'listChannels', { origin })).state).toBe('completed');
    expect(responses(h, origin)).toHaveLength(1);
  });

  it('falls back to an ephemeral message once the response_url has expired', async () => {
    const origin = originOf(h, { receivedAt: Date.now() - 31 * 60 * 1000 });
    const before = callsOf(h, 'chat.postEphemeral').length;
    expect((await run(h, 'listChannels', { origin })).state).toBe('completed');
    expect(responses(h, origin)).toHaveLength(0);
    const ephemeral = callsOf(h, 'chat.postEphemeral').slice(before);
    expect(ephemeral).toHaveLength(1);
    expect(ephemeral[0]?.args).toMatchObject({ channel: origin.slackChannel, user: ADA });
  });

  it('dates the response_url from when Slack issued it, not from a later modal submission', async () => {
    // A shortcut opened a form ~30 minutes ago; the form was submitted just now: the url is stale.
    const origin = { ...originOf(h), responseUrlAt: Date.now() - 30 * 60 * 1000 };
    const before = callsOf(h, 'chat.postEphemeral').length;
    expect((await run(h, 'listChannels', { origin })).state).toBe('completed');
    expect(responses(h, origin)).toHaveLength(0);
    expect(callsOf(h, 'chat.postEphemeral').length).toBe(before + 1);
  });

  it('falls back to a DM when Slack refuses the ephemeral message, and the operation is not repeated', async () => {
    const origin = originOf(h, { receivedAt: Date.now() - 31 * 60 * 1000 });
    h.slack.failNext('chat.postEphemeral', 'channel_not_found');
    const dmsBefore = callsOf(h, 'chat.postMessage').filter((c) => c.args.channel === ADA).length;
    const requestsBefore = h.emulator.received.filter((r) => r.route === 'GET /v2/channels').length;
    const ran = await run(h, 'listChannels', { origin });
    expect(ran.state).toBe('completed');
    expect(ran.job.attemptsMade).toBe(1);
    const dms = callsOf(h, 'chat.postMessage').filter((c) => c.args.channel === ADA);
    expect(dms.length).toBe(dmsBefore + 1);
    expect(h.emulator.received.filter((r) => r.route === 'GET /v2/channels').length).toBe(requestsBefore + 1);
  });

  it('falls back from a response_url that Slack refuses', async () => {
    const origin = originOf(h);
    h.slack.failNext('response_url', 'expired_url');
    const before = callsOf(h, 'chat.postEphemeral').length;
    expect((await run(h, 'listChannels', { origin })).state).toBe('completed');
    expect(callsOf(h, 'chat.postEphemeral').length).toBe(before + 1);
  });
});
