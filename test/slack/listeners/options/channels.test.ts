/**
 * Options of the collaboration channel picker, through signed block_suggestion payloads: a
 * direct API call with a short timeout and a 30 s cache, and an empty list instead of a missed
 * deadline when the API fails or is slow.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { parseChannelOption } from '../../../../src/render/modals.ts';
import { blockSuggestion } from '../../../../src/sandbox/slack/index.ts';
import { interactionBody } from '../../../../src/sandbox/slack/sign.ts';
import { ADA, type Harness } from '../../../support/harness.ts';
import { postToBolt } from '../../../support/slack-client.ts';
import { startBareApp } from '../bare-app.ts';
import { type AckBody, expectNothingQueued, useWebHarness } from '../support.ts';

let h: Harness;
useWebHarness((started) => {
  h = started;
});
beforeEach(() => {
  h.emulator.faults.clear();
  h.emulator.received.length = 0;
});

const suggest = (value: string, actionId = 'channel_picker') =>
  blockSuggestion({
    action_id: actionId,
    block_id: 'channel',
    value,
    user: ADA,
    view: { id: 'V_PICK', callback_id: 'post_create' },
  });

const channelRequests = () => h.emulator.received.filter((r) => r.route === 'GET /v2/channels');

async function optionsFor(value: string): Promise<AckBody['options']> {
  const response = await h.interact(suggest(value));
  expect(response.status).toBe(200);
  return response.json<AckBody>().options;
}

describe('channel picker options', () => {
  it('lists channels by name, asking the API for 50 sorted by name', async () => {
    const options = await optionsFor('');
    const names = options?.map((o) => o.text.text) ?? [];
    expect(names).toContain('#general');
    expect(names).toContain('#engineering');
    expect(names).toEqual([...names].sort());
    expect(parseChannelOption(options![0]!.value).id).toEqual(expect.any(String));
    const [request] = channelRequests();
    expect(request?.query).toMatchObject({ limit: '50', sort: 'name', direction: 'asc' });
    expect(request?.query).not.toHaveProperty('name');
    await expectNothingQueued(h);
  });

  it('filters by what the person typed (a leading # is ignored)', async () => {
    const options = await optionsFor('#engin');
    expect(options?.map((o) => o.text.text)).toEqual(['#engineering']);
    expect(channelRequests()[0]?.query).toMatchObject({ name: 'engin' });
  });

  it('answers the same query from the cache', async () => {
    const first = await optionsFor('desi');
    const second = await optionsFor('desi');
    expect(second).toEqual(first);
    expect(channelRequests()).toHaveLength(1);
  });

  it('answers an empty list when the API fails', async () => {
    h.emulator.faults.add({ route: 'GET /v2/channels', status: 500 });
    expect(await optionsFor('mark')).toEqual([]);
    expect(channelRequests()).toHaveLength(1);
    // not cached: the next request asks again
    expect((await optionsFor('mark'))?.map((o) => o.text.text)).toEqual(['#marketing']);
  });

  it.each([
    ['no workspace at all', { team: null, user: { id: ADA, name: 'ada' } }],
    ['a value that is not text', { value: 42 }],
  ])('answers an empty list to a malformed payload (%s)', async (_what, change) => {
    const response = await h.interact({ ...suggest('x'), ...change });
    expect(response.status).toBe(200);
    expect(response.json<AckBody>().options).toEqual([]);
    expect(channelRequests()).toHaveLength(0);
  });

  it('answers an empty list when the API is slower than the options timeout', async () => {
    const bare = await startBareApp({
      slack: h.slack,
      collabUrl: h.emulator.url,
      collabKey: h.emulator.apiKey,
      optionsTimeoutMs: 100,
    });
    try {
      h.emulator.faults.add({ route: 'GET /v2/channels', latencyMs: 5_000 });
      const response = await postToBolt(
        bare.baseUrl,
        bare.signingSecret,
        'interaction',
        interactionBody(suggest('slow')),
      );
      expect(response.status).toBe(200);
      expect(response.json<AckBody>().options).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
