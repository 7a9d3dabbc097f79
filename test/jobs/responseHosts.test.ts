/**
 * Outcomes go to response_urls on whatever host Slack names, through a keep-alive pool per host
 * that the process keeps (a few of them; past that the oldest is closed). Every host is still
 * answered when more of them were used than are kept, and a host whose pool was closed is
 * answered again.
 */
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutcomes } from '../../src/jobs/delivery.ts';
import { createLogger } from '../../src/logger.ts';
import type { Origin } from '../../src/operations/schemas.ts';
import { type SlackStandIn, startSlackStandIn } from '../../src/sandbox/slack/index.ts';

/** More hosts than the process keeps pools for. */
const HOSTS = 12;

describe('outcomes on response_urls of many hosts', () => {
  let hosts: SlackStandIn[] = [];
  beforeAll(async () => {
    hosts = await Promise.all(Array.from({ length: HOSTS }, () => startSlackStandIn()));
  });
  afterAll(async () => {
    await Promise.all(hosts.map((host) => host.close()));
  });

  it('answers each host, and the first again after the others', async () => {
    const slack = new WebClient('xoxb-test', { slackApiUrl: hosts[0]?.url ?? '' });
    const outcomes = createOutcomes(slack, createLogger({ level: 'silent' }));
    const origin = (host: SlackStandIn, id: string): Origin => ({
      teamId: 'T_LOCAL',
      userId: 'U_ADA',
      slackChannel: 'C_GENERAL',
      responseUrl: host.responseUrl(id),
      receivedAt: Date.now(),
      source: 'command',
    });
    const order = [...hosts, hosts[0] as SlackStandIn, hosts[1] as SlackStandIn];
    const delivered: string[] = [];
    for (const [i, host] of order.entries()) {
      delivered.push(
        await outcomes.deliver(origin(host, `r${i}`), { text: `outcome ${i}` }, { replaceOriginal: true }),
      );
    }
    expect(delivered).toEqual(order.map(() => 'responseUrl'));
    for (const [i, host] of order.entries()) {
      const posted = host.responseUrlCalls.filter((call) => call.args.text === `outcome ${i}`);
      expect(posted).toHaveLength(1);
      expect(posted[0]?.args).toMatchObject({ replace_original: true, response_type: 'ephemeral' });
    }
    // Nothing fell back to Slack's Web API.
    expect(hosts.flatMap((host) => host.calls.map((call) => call.method))).toEqual([]);
  });
});
