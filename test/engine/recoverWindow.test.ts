/**
 * An ambiguous create is looked for back to the job's first attempt, however many records came
 * since. Before, only the newest 20 posts of the channel (messages of the thread) were read: a
 * busy channel between a lost answer and the retry hid the post that landed, and it was created
 * a second time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HandledEvent } from '../../src/sandbox/emulator/index.ts';
import { appPostsWith, channelId, originOf, responseTexts, run, unique } from '../jobs/helpers.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const NEWER = 45;

describe('recovering a create in a busy channel', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  /** Once `route` has applied a write, `NEWER` records arrive after it (a second later). */
  function burstAfter(route: string, add: (at: Date) => void): () => void {
    const onHandled = ({ request }: HandledEvent) => {
      if (request.route !== route) return;
      h.emulator.events.off('handled', onHandled);
      for (let i = 0; i < NEWER; i++) add(new Date(Date.now() + 1000 + i));
    };
    h.emulator.events.on('handled', onHandled);
    return () => h.emulator.events.off('handled', onHandled);
  }

  it(`a post whose answer was lost, with ${NEWER} newer posts in its channel: found, not created again`, async () => {
    const org = h.emulator.org();
    const engineering = channelId(h, 'engineering');
    h.emulator.faults.add({ route: 'POST /v2/posts', drop: 'afterApply', times: 1 });
    const stop = burstAfter('POST /v2/posts', (at) =>
      org.createPost(org.app, { content_markdown: unique('busy channel'), channel_id: engineering }, at),
    );
    try {
      const origin = originOf(h);
      const text = unique('lost answer');
      const { state } = await run(h, 'createPost', {
        origin,
        channel: { name: 'engineering' },
        content: text,
      });
      expect(state).toBe('completed');
      expect(appPostsWith(h, text)).toHaveLength(1);
      expect(responseTexts(h, origin).at(-1)).toContain('Posted to #engineering');
    } finally {
      stop();
    }
  });

  it(`a message whose answer was lost, with ${NEWER} newer messages in its thread: found, not sent again`, async () => {
    const org = h.emulator.org();
    const threadId = [...org.threads.values()][0]!.id;
    h.emulator.faults.add({ route: 'POST /v2/threads/{thread_id}/messages', drop: 'afterApply', times: 1 });
    const stop = burstAfter('POST /v2/threads/{thread_id}/messages', (at) =>
      org.createMessage(org.app, threadId, { content_markdown: unique('busy thread') }, at),
    );
    try {
      const origin = originOf(h);
      const text = unique('lost answer');
      const { state } = await run(h, 'sendDm', { origin, threadId, text });
      expect(state).toBe('completed');
      expect([...org.messages.values()].filter((m) => m.content_markdown.includes(text))).toHaveLength(1);
    } finally {
      stop();
    }
  });
});
